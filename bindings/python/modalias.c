/*
 * modalias: Python bindings of libmodalias.
 *
 * Written against the public header alone (libmodalias.h).  Threading: the
 * C objects are not shared with Python's reference counts; a Table, a Map
 * and a Loader hold one C reference that close() (or the end of a "with"
 * block, or deallocation) drops.  Table lookups run with the GIL released,
 * under the table's read lock, each with its own struct modalias_result;
 * changes to a table take the write lock and rebuild the index before they
 * return (modalias_table_prepare()), so that lookups never modify it.
 * Every lock is waited for with the GIL released.  Messages of the C
 * library are captured per thread and become the text of the exceptions.
 *
 * While the GIL is released (Py_BEGIN_ALLOW_THREADS), another thread may
 * change or free any Python object this call did not take a reference to:
 * a list being resolved, a value in a shared keyword dict, a Map being
 * closed.  So the code between Py_BEGIN_ALLOW_THREADS and
 * Py_END_ALLOW_THREADS uses only C memory: strings copied out of the
 * arguments first (cstr_dup(), struct alias_batch), the bytes of
 * PyUnicode_FSConverter() objects this call owns (immutable, pointers
 * taken before), and C references (modalias_*_ref()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <libmodalias.h>

#ifndef MODALIAS_VERSION
#define MODALIAS_VERSION "unknown"
#endif
#ifndef BUNDLED_MODDIR
#define BUNDLED_MODDIR ""
#endif

/* ---- messages of the C library, per thread -------------------------------- */

#define LOG_CAP 2048

struct log_capture {
	char text[LOG_CAP]; /* messages of the current call, "; "-separated */
	size_t len;
	unsigned int count;
};

static _Thread_local struct log_capture tls_log;

static void log_reset(void)
{
	tls_log.len = 0;
	tls_log.text[0] = '\0';
	tls_log.count = 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void capture_log(void *data, int priority, const char *file, int line, const char *fn,
			const char *format, va_list args)
{
	char msg[1024];
	size_t n;

	vsnprintf(msg, sizeof(msg), format, args);
	n = strlen(msg);
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	if (priority > LOG_WARNING) {
		/* asked for with MODALIAS_LOG: printed, as the default log function does */
		fprintf(stderr, "libmodalias: %s\n", msg);
		return;
	}
	if (tls_log.count++ > 0 && tls_log.len + 2 < LOG_CAP) {
		memcpy(tls_log.text + tls_log.len, "; ", 3);
		tls_log.len += 2;
	}
	if (tls_log.len < LOG_CAP - 1) {
		size_t room = LOG_CAP - 1 - tls_log.len;
		if (n > room)
			n = room;
		memcpy(tls_log.text + tls_log.len, msg, n);
		tls_log.len += n;
		tls_log.text[tls_log.len] = '\0';
	}
}
#pragma GCC diagnostic pop

/* ---- exceptions ----------------------------------------------------------------- */

static PyObject *Error;            /* OSError */
static PyObject *InputError;       /* Error, ValueError */
static PyObject *NotFoundError;    /* Error, FileNotFoundError */
static PyObject *AccessError;      /* Error, PermissionError */
static PyObject *UnsupportedError; /* Error */
static PyObject *ParseWarning;     /* UserWarning */

enum err_kind {
	KIND_IO,    /* files and directories: ENOENT is "not found" */
	KIND_INPUT, /* values, fields, buses, module names: ENOENT is "no such
		     * field/bus", ENAMETOOLONG a name too long */
};

/* Raises for a negative errno from the C library, with the messages it logged. */
static PyObject *raise_errno(int err, enum err_kind kind, const char *filename)
{
	int e = err < 0 ? -err : err;
	PyObject *type = Error, *exc;
	const char *msg;

	if (e == ENOMEM)
		return PyErr_NoMemory();
	if (e == EINVAL || e == ERANGE || e == EDOM || (kind == KIND_INPUT && (e == ENOENT || e == ENAMETOOLONG)))
		type = InputError;
	else if (e == ENOENT)
		type = NotFoundError;
	else if (e == EACCES || e == EPERM)
		type = AccessError;
	else if (e == EOPNOTSUPP)
		type = UnsupportedError;
	msg = tls_log.count ? tls_log.text : strerror(e);
	if (filename)
		exc = PyObject_CallFunction(type, "iss", e, msg, filename);
	else
		exc = PyObject_CallFunction(type, "is", e, msg);
	if (exc) {
		PyErr_SetObject(type, exc);
		Py_DECREF(exc);
	}
	log_reset();
	return NULL;
}

/* Skipped lines or rows: a ParseWarning with what the library said. */
static int warn_skipped(int skipped, const char *what)
{
	int r = 0;

	if (skipped > 0)
		r = PyErr_WarnFormat(ParseWarning, 2, "%s: %d malformed line(s) skipped%s%s", what, skipped,
				     tls_log.count ? ": " : "", tls_log.count ? tls_log.text : "");
	log_reset();
	return r;
}

static PyObject *raise_closed(const char *what)
{
	PyErr_Format(PyExc_ValueError, "operation on a closed %s", what);
	return NULL;
}

static struct modalias_ctx *new_ctx(const char *sysfs_root)
{
	struct modalias_ctx *ctx = NULL;
	int r = modalias_ctx_new(&ctx);

	if (r < 0) {
		raise_errno(r, KIND_IO, NULL);
		return NULL;
	}
	modalias_ctx_set_log_fn(ctx, capture_log, NULL);
	if (sysfs_root) {
		r = modalias_ctx_set_sysfs_root(ctx, sysfs_root);
		if (r < 0) {
			modalias_ctx_unref(ctx);
			raise_errno(r, KIND_INPUT, sysfs_root);
			return NULL;
		}
	}
	return ctx;
}

/* ---- argument converters ---------------------------------------------------------- */

/* A path (str, bytes, os.PathLike) or None: *(PyObject **)p gets a bytes
 * object (a new reference) or NULL.  For "O&". */
static int opt_path_conv(PyObject *o, void *p)
{
	PyObject **out = p;

	if (o == Py_None) {
		*out = NULL;
		return 1;
	}
	if (!PyUnicode_FSConverter(o, out))
		return 0;
	return 1;
}

static const char *bytes_or_null(PyObject *b)
{
	return b ? PyBytes_AS_STRING(b) : NULL;
}

/* *out: a copy in C memory (free(3) it) of a string argument, for use with
 * the GIL released; NULL stays NULL.  -1 with MemoryError. */
static int cstr_dup(const char *s, char **out)
{
	*out = s ? strdup(s) : NULL;
	if (s && !*out) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

/* A NULL-terminated array of paths from None (NULL: the system's), one
 * path, or an iterable of paths (possibly empty: none). */
struct path_list {
	PyObject *bytes; /* list of bytes objects, or NULL */
	const char **v;  /* NULL for None */
};

static void path_list_clear(struct path_list *pl)
{
	Py_CLEAR(pl->bytes);
	PyMem_Free(pl->v);
	pl->v = NULL;
}

static int path_list_init(struct path_list *pl, PyObject *o)
{
	PyObject *it, *item;
	Py_ssize_t n;

	pl->bytes = NULL;
	pl->v = NULL;
	if (!o || o == Py_None)
		return 0;
	pl->bytes = PyList_New(0);
	if (!pl->bytes)
		return -1;
	if (PyUnicode_Check(o) || PyBytes_Check(o) || PyObject_HasAttrString(o, "__fspath__")) {
		PyObject *b = NULL;
		if (!PyUnicode_FSConverter(o, &b) || PyList_Append(pl->bytes, b) < 0) {
			Py_XDECREF(b);
			goto fail;
		}
		Py_DECREF(b);
	} else {
		it = PyObject_GetIter(o);
		if (!it)
			goto fail;
		while ((item = PyIter_Next(it))) {
			PyObject *b = NULL;
			int ok = PyUnicode_FSConverter(item, &b) && PyList_Append(pl->bytes, b) == 0;
			Py_DECREF(item);
			Py_XDECREF(b);
			if (!ok) {
				Py_DECREF(it);
				goto fail;
			}
		}
		Py_DECREF(it);
		if (PyErr_Occurred())
			goto fail;
	}
	n = PyList_GET_SIZE(pl->bytes);
	pl->v = PyMem_Calloc((size_t)n + 1, sizeof(char *));
	if (!pl->v) {
		PyErr_NoMemory();
		goto fail;
	}
	for (Py_ssize_t i = 0; i < n; i++)
		pl->v[i] = PyBytes_AS_STRING(PyList_GET_ITEM(pl->bytes, i));
	return 0;
fail:
	path_list_clear(pl);
	return -1;
}

/* ---- structure types ---------------------------------------------------------------- */

static PyTypeObject *ModuleType, *MapEntryType, *LoadRecordType, *SysfsEntryType;

static PyStructSequence_Field module_fields[] = {
	{ "name", "the module's name, normalised ('_', not '-')" },
	{ "builtin", "whether it is built into the kernel" },
	{ "patterns", "the patterns that matched (tuple of str)" },
	{ "source", "which source answered: config, name, symbol, command, alias, builtin-alias, builtin" },
	{ "origins", "for each pattern, (file, line) it came from (line 0: not from a file)" },
	{ NULL, NULL },
};
static PyStructSequence_Desc module_desc = {
	"modalias.Module",
	"A module a lookup found: (name, builtin, patterns, source, origins).",
	module_fields, 5,
};

static PyStructSequence_Field map_entry_fields[] = {
	{ "module", "the row's module, as written (depmod kept its dashes)" },
	{ "line", "the line of the file it is on (from 1)" },
	{ "fields", "dict: column name -> int, str, or list of int (input bitmaps, isapnp ids)" },
	{ "index", "the row's index in its map" },
	{ NULL, NULL },
};
static PyStructSequence_Desc map_entry_desc = {
	"modalias.MapEntry",
	"One row of a legacy modules.*map file: (module, line, fields, index).",
	map_entry_fields, 4,
};

static PyStructSequence_Field load_record_fields[] = {
	{ "module", "the module's name" },
	{ "detail", "its path (what modprobe -n -v prints after insmod), the install command, or ''" },
	{ "options", "its options from modprobe.d, or ''" },
	{ "state", "inserted, would insert, install command, already loaded, builtin, blacklisted, failed, "
		   "not found" },
	{ "errno", "for failed and not found, the (positive) errno; else 0" },
	{ NULL, NULL },
};
static PyStructSequence_Desc load_record_desc = {
	"modalias.LoadRecord",
	"What a load did to one module: (module, detail, options, state, errno).",
	load_record_fields, 5,
};

static PyStructSequence_Field sysfs_entry_fields[] = {
	{ "devpath", "the device's path below the sysfs root ('/devices/...')" },
	{ "device", "its Device, or None when its modalias could not be read" },
	{ "errno", "0, or the (positive) errno of reading its modalias" },
	{ NULL, NULL },
};
static PyStructSequence_Desc sysfs_entry_desc = {
	"modalias.SysfsEntry",
	"A device found by walk_sysfs(): (devpath, device, errno).",
	sysfs_entry_fields, 3,
};

/* ---- Device ---------------------------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	struct modalias_dev *dev;
} DeviceObject;

static PyTypeObject DeviceType;

static PyObject *device_wrap(PyTypeObject *type, struct modalias_dev *dev)
{
	DeviceObject *self = (DeviceObject *)type->tp_alloc(type, 0);

	if (!self) {
		modalias_dev_unref(dev);
		return NULL;
	}
	self->dev = dev;
	return (PyObject *)self;
}

static bool field_is_list(const char *bus, const char *field)
{
	return modalias_bus_field_is_list(bus, field) == 1;
}

static int device_set_value(struct modalias_dev *dev, const char *field, PyObject *value)
{
	int r;

	log_reset();
	if (value == NULL || value == Py_None) {
		r = modalias_dev_unset(dev, field);
	} else if (PyLong_Check(value) && !PyBool_Check(value)) {
		unsigned long long u = PyLong_AsUnsignedLongLong(value);
		if (u == (unsigned long long)-1 && PyErr_Occurred())
			return -1;
		r = modalias_dev_set_uint(dev, field, u);
		if (r == -EINVAL) {
			/* not a numeric field: its text */
			char buf[32];
			snprintf(buf, sizeof(buf), "%llx", u);
			log_reset();
			r = modalias_dev_set(dev, field, buf);
		}
	} else if (PyUnicode_Check(value)) {
		Py_ssize_t len;
		const char *s = PyUnicode_AsUTF8AndSize(value, &len);
		if (!s)
			return -1;
		if ((size_t)len != strlen(s)) {
			PyErr_SetString(InputError, "embedded null character");
			return -1;
		}
		r = modalias_dev_set(dev, field, s);
	} else if (PyList_Check(value) || PyTuple_Check(value)) {
		PyObject *seq;
		/* the library names an unknown field */
		r = modalias_dev_get_count(dev, field);
		if (r < 0) {
			raise_errno(r, KIND_INPUT, NULL);
			return -1;
		}
		if (!field_is_list(modalias_dev_get_bus(dev), field)) {
			PyErr_Format(PyExc_TypeError, "%s: one value (str or int), not a %.100s: %s is not a list field",
				     field, Py_TYPE(value)->tp_name, field);
			return -1;
		}
		seq = PySequence_Fast(value, "a list");
		if (!seq)
			return -1;
		r = modalias_dev_unset(dev, field);
		for (Py_ssize_t i = 0; r >= 0 && i < PySequence_Fast_GET_SIZE(seq); i++) {
			PyObject *item = PySequence_Fast_GET_ITEM(seq, i), *text;
			const char *s;
			if (PyLong_Check(item)) {
				unsigned long long u = PyLong_AsUnsignedLongLong(item);
				char buf[32];
				if (u == (unsigned long long)-1 && PyErr_Occurred()) {
					Py_DECREF(seq);
					return -1;
				}
				snprintf(buf, sizeof(buf), "%llx", u);
				r = modalias_dev_add(dev, field, buf);
				continue;
			}
			if (!PyUnicode_Check(item)) {
				PyErr_Format(PyExc_TypeError, "%s: list items are str or int, not %.100s", field,
					     Py_TYPE(item)->tp_name);
				Py_DECREF(seq);
				return -1;
			}
			text = item;
			s = PyUnicode_AsUTF8(text);
			if (!s) {
				Py_DECREF(seq);
				return -1;
			}
			r = modalias_dev_add(dev, field, s);
		}
		Py_DECREF(seq);
	} else {
		PyErr_Format(PyExc_TypeError, "%s: values are str, int, a list of them or None, not %.100s",
			     field, Py_TYPE(value)->tp_name);
		return -1;
	}
	if (r < 0) {
		raise_errno(r, KIND_INPUT, NULL);
		return -1;
	}
	return 0;
}

static int device_set_kwargs(struct modalias_dev *dev, PyObject *kwargs)
{
	PyObject *key, *value;
	Py_ssize_t pos = 0;

	if (!kwargs)
		return 0;
	while (PyDict_Next(kwargs, &pos, &key, &value)) {
		const char *field = PyUnicode_AsUTF8(key);
		if (!field || device_set_value(dev, field, value) < 0)
			return -1;
	}
	return 0;
}

static struct modalias_dev *dev_new_bus(const char *bus)
{
	struct modalias_ctx *ctx = new_ctx(NULL);
	struct modalias_dev *dev = NULL;
	int r;

	if (!ctx)
		return NULL;
	log_reset();
	r = modalias_dev_new(ctx, bus, &dev);
	modalias_ctx_unref(ctx);
	if (r < 0) {
		if (r == -ENOENT) {
			PyObject *exc = PyObject_CallFunction(InputError, "is", ENOENT, "unknown bus");
			if (exc) {
				PyObject *msg = PyUnicode_FromFormat("unknown bus '%s' (see modalias.buses())", bus);
				if (msg) {
					PyObject_SetAttrString(exc, "strerror", msg);
					Py_DECREF(msg);
				}
				PyErr_SetObject(InputError, exc);
				Py_DECREF(exc);
			}
			return NULL;
		}
		raise_errno(r, KIND_INPUT, NULL);
		return NULL;
	}
	return dev;
}

static PyObject *Device_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	const char *bus;
	struct modalias_dev *dev;

	if (!PyArg_ParseTuple(args, "s:Device", &bus))
		return NULL;
	dev = dev_new_bus(bus);
	if (!dev)
		return NULL;
	if (device_set_kwargs(dev, kwargs) < 0) {
		modalias_dev_unref(dev);
		return NULL;
	}
	return device_wrap(type, dev);
}

static void Device_dealloc(DeviceObject *self)
{
	modalias_dev_unref(self->dev);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *device_format(struct modalias_dev *dev)
{
	char *s = NULL;
	int r;
	PyObject *o;

	log_reset();
	r = modalias_dev_format(dev, &s);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	o = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "surrogateescape");
	free(s);
	return o;
}

static PyObject *Device_str(DeviceObject *self)
{
	return device_format(self->dev);
}

static PyObject *Device_repr(DeviceObject *self)
{
	PyObject *s = device_format(self->dev), *r;

	if (!s)
		return NULL;
	r = PyUnicode_FromFormat("modalias.Device.parse(%R)", s);
	Py_DECREF(s);
	return r;
}

static PyObject *Device_richcompare(PyObject *a, PyObject *b, int op)
{
	PyObject *sa, *sb, *r;

	if (!PyObject_TypeCheck(b, &DeviceType) || (op != Py_EQ && op != Py_NE))
		Py_RETURN_NOTIMPLEMENTED;
	sa = device_format(((DeviceObject *)a)->dev);
	sb = sa ? device_format(((DeviceObject *)b)->dev) : NULL;
	r = sb ? PyObject_RichCompare(sa, sb, op) : NULL;
	Py_XDECREF(sa);
	Py_XDECREF(sb);
	return r;
}

/* KeyError for a field the bus does not have, with the library's message
 * (from modalias_dev_get_count() or the like, which returned r). */
static void raise_unknown_field(int r)
{
	PyObject *msg = tls_log.count ? PyUnicode_FromString(tls_log.text) : PyUnicode_FromString(strerror(-r));

	if (msg) {
		PyErr_SetObject(PyExc_KeyError, msg);
		Py_DECREF(msg);
	}
	log_reset();
}

/* A field's value: str, list of str (list fields), or NULL with KeyError. */
static PyObject *device_get_field(struct modalias_dev *dev, const char *field, bool keyerror)
{
	const char *bus = modalias_dev_get_bus(dev);
	int count = modalias_dev_get_count(dev, field);
	bool list;
	PyObject *l;

	if (count < 0) {
		/* the library said "unknown field 'X' of bus Y" */
		if (keyerror)
			raise_unknown_field(count);
		log_reset();
		return NULL;
	}
	if (count == 0) {
		if (keyerror)
			PyErr_Format(PyExc_KeyError, "%s", field);
		return NULL;
	}
	list = count > 1 || field_is_list(bus, field);
	if (!list) {
		const char *v;
		if (modalias_dev_get(dev, field, 0, &v) < 0)
			return raise_errno(-ENOENT, KIND_INPUT, NULL);
		return PyUnicode_DecodeUTF8(v, (Py_ssize_t)strlen(v), "surrogateescape");
	}
	l = PyList_New(count);
	if (!l)
		return NULL;
	for (int k = 0; k < count; k++) {
		const char *v = "";
		PyObject *s;
		modalias_dev_get(dev, field, (unsigned int)k, &v);
		s = PyUnicode_DecodeUTF8(v, (Py_ssize_t)strlen(v), "surrogateescape");
		if (!s) {
			Py_DECREF(l);
			return NULL;
		}
		PyList_SET_ITEM(l, k, s);
	}
	return l;
}

/* Device.fields: a dict whose missing keys say whether the bus has no such
 * field ("unknown field 'X' of bus Y") or it is merely not set. */
typedef struct {
	PyDictObject dict;
	PyObject *device; /* the Device it was made from */
} FieldsObject;

static PyTypeObject FieldsType;

static void Fields_dealloc(FieldsObject *self)
{
	PyObject_GC_UnTrack(self);
	Py_CLEAR(self->device);
	PyDict_Type.tp_dealloc((PyObject *)self);
}

static int Fields_traverse(FieldsObject *self, visitproc visit, void *arg)
{
	Py_VISIT(self->device);
	return PyDict_Type.tp_traverse((PyObject *)self, visit, arg);
}

static int Fields_clear(FieldsObject *self)
{
	Py_CLEAR(self->device);
	return PyDict_Type.tp_clear((PyObject *)self);
}

static PyObject *Fields_missing(FieldsObject *self, PyObject *key)
{
	const char *field = PyUnicode_Check(key) && self->device ? PyUnicode_AsUTF8(key) : NULL;
	int n;

	if (!field) {
		if (!PyErr_Occurred())
			PyErr_SetObject(PyExc_KeyError, key);
		return NULL;
	}
	log_reset();
	n = modalias_dev_get_count(((DeviceObject *)self->device)->dev, field);
	if (n < 0)
		raise_unknown_field(n);
	else
		PyErr_SetObject(PyExc_KeyError, key);
	return NULL;
}

/* pickled and copied as the plain dict it was before */
static PyObject *Fields_reduce(FieldsObject *self, PyObject *unused)
{
	return Py_BuildValue("(O(N))", (PyObject *)&PyDict_Type, PyDict_Copy((PyObject *)self));
}

static PyMethodDef Fields_methods[] = {
	{ "__missing__", (PyCFunction)Fields_missing, METH_O,
	  "KeyError naming an unknown field as such (\"unknown field 'X' of bus Y\")." },
	{ "__reduce__", (PyCFunction)Fields_reduce, METH_NOARGS, "Pickled as a plain dict." },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject FieldsType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Fields",
	.tp_basicsize = sizeof(FieldsObject),
	.tp_dealloc = (destructor)Fields_dealloc,
	.tp_traverse = (traverseproc)Fields_traverse,
	.tp_clear = (inquiry)Fields_clear,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
	.tp_doc = "The fields of a Device (a dict): a missing key raises KeyError, whose text\n"
		  "says when the bus has no such field.",
	.tp_methods = Fields_methods,
};

static PyObject *Device_get_fields(DeviceObject *self, void *closure)
{
	const char *bus = modalias_dev_get_bus(self->dev), *f;
	PyObject *d = PyObject_CallObject((PyObject *)&FieldsType, NULL);

	if (!d)
		return NULL;
	Py_INCREF(self);
	((FieldsObject *)d)->device = (PyObject *)self;
	if (!modalias_bus_field_name(bus, 0)) {
		PyObject *raw = device_get_field(self->dev, "raw", false);
		if (raw) {
			PyDict_SetItemString(d, "raw", raw);
			Py_DECREF(raw);
		} else if (PyErr_Occurred()) {
			Py_DECREF(d);
			return NULL;
		}
		return d;
	}
	for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++) {
		PyObject *v = device_get_field(self->dev, f, false);
		if (!v) {
			if (PyErr_Occurred()) {
				Py_DECREF(d);
				return NULL;
			}
			continue;
		}
		if (PyDict_SetItemString(d, f, v) < 0) {
			Py_DECREF(v);
			Py_DECREF(d);
			return NULL;
		}
		Py_DECREF(v);
	}
	return d;
}

static PyObject *Device_get_bus(DeviceObject *self, void *closure)
{
	return PyUnicode_FromString(modalias_dev_get_bus(self->dev));
}

static PyObject *Device_get_modalias(DeviceObject *self, void *closure)
{
	return device_format(self->dev);
}

static PyObject *Device_subscript(DeviceObject *self, PyObject *key)
{
	const char *field;

	if (!PyUnicode_Check(key)) {
		PyErr_SetString(PyExc_TypeError, "field names are str");
		return NULL;
	}
	field = PyUnicode_AsUTF8(key);
	if (!field)
		return NULL;
	log_reset();
	return device_get_field(self->dev, field, true);
}

static int Device_ass_subscript(DeviceObject *self, PyObject *key, PyObject *value)
{
	const char *field;

	if (!PyUnicode_Check(key)) {
		PyErr_SetString(PyExc_TypeError, "field names are str");
		return -1;
	}
	field = PyUnicode_AsUTF8(key);
	if (!field)
		return -1;
	if (!value) {
		int n;

		log_reset();
		n = modalias_dev_get_count(self->dev, field);
		if (n < 0) {
			raise_unknown_field(n);
			return -1;
		}
		if (n == 0) {
			PyErr_Format(PyExc_KeyError, "%s", field);
			return -1;
		}
	}
	return device_set_value(self->dev, field, value);
}

static int Device_contains(DeviceObject *self, PyObject *key)
{
	const char *field;
	int r;

	if (!PyUnicode_Check(key))
		return 0;
	field = PyUnicode_AsUTF8(key);
	if (!field)
		return -1;
	r = modalias_dev_get_count(self->dev, field) > 0;
	log_reset(); /* an unknown field is not in it: no error */
	return r;
}

static PyObject *Device_set(DeviceObject *self, PyObject *args)
{
	const char *field;
	PyObject *value;

	if (!PyArg_ParseTuple(args, "sO:set", &field, &value))
		return NULL;
	if (device_set_value(self->dev, field, value) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *Device_add(DeviceObject *self, PyObject *args)
{
	const char *field;
	PyObject *value, *text;
	int r;

	if (!PyArg_ParseTuple(args, "sO:add", &field, &value))
		return NULL;
	if (PyLong_Check(value)) {
		unsigned long long u = PyLong_AsUnsignedLongLong(value);
		char buf[32];
		if (u == (unsigned long long)-1 && PyErr_Occurred())
			return NULL;
		snprintf(buf, sizeof(buf), "%llx", u);
		text = PyUnicode_FromString(buf);
	} else if (PyUnicode_Check(value)) {
		text = value;
		Py_INCREF(text);
	} else {
		PyErr_Format(PyExc_TypeError, "add() takes a str or an int, not %.100s", Py_TYPE(value)->tp_name);
		return NULL;
	}
	if (!text)
		return NULL;
	log_reset();
	r = modalias_dev_add(self->dev, field, PyUnicode_AsUTF8(text));
	Py_DECREF(text);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	Py_RETURN_NONE;
}

static PyObject *Device_unset(DeviceObject *self, PyObject *args)
{
	const char *field;
	int r;

	if (!PyArg_ParseTuple(args, "s:unset", &field))
		return NULL;
	log_reset();
	r = modalias_dev_unset(self->dev, field);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	Py_RETURN_NONE;
}

static PyObject *Device_count(DeviceObject *self, PyObject *args)
{
	const char *field;
	int r;

	if (!PyArg_ParseTuple(args, "s:count", &field))
		return NULL;
	log_reset();
	r = modalias_dev_get_count(self->dev, field);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	return PyLong_FromLong(r);
}

static PyObject *Device_get_uint(DeviceObject *self, PyObject *args)
{
	const char *field;
	unsigned int index = 0;
	uint64_t v = 0;
	int r;

	if (!PyArg_ParseTuple(args, "s|I:get_uint", &field, &index))
		return NULL;
	log_reset();
	r = modalias_dev_get_uint(self->dev, field, index, &v);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	return PyLong_FromUnsignedLongLong(v);
}

static PyObject *Device_copy(DeviceObject *self, PyObject *unused)
{
	char *s = NULL;
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	int r;

	log_reset();
	r = modalias_dev_format(self->dev, &s);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	ctx = new_ctx(NULL);
	if (!ctx) {
		free(s);
		return NULL;
	}
	r = modalias_parse(ctx, s, &dev);
	free(s);
	modalias_ctx_unref(ctx);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	return device_wrap(Py_TYPE(self), dev);
}

/* parse / from_env / from_sysfs, shared by the classmethods and module functions */

static PyObject *do_parse(PyTypeObject *type, PyObject *args)
{
	const char *s;
	Py_ssize_t len;
	PyObject *str;
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	int r;

	if (!PyArg_ParseTuple(args, "U:parse", &str))
		return NULL;
	s = PyUnicode_AsUTF8AndSize(str, &len);
	if (!s)
		return NULL;
	if ((size_t)len != strlen(s)) {
		PyErr_SetString(InputError, "embedded null character");
		return NULL;
	}
	ctx = new_ctx(NULL);
	if (!ctx)
		return NULL;
	log_reset();
	r = modalias_parse(ctx, s, &dev);
	modalias_ctx_unref(ctx);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	return device_wrap(type, dev);
}

static PyObject *do_from_env(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "env", "subsystem", "sysfs_root", NULL };
	PyObject *env, *items = NULL, *root = NULL;
	const char *subsystem = NULL;
	char **envp = NULL;
	Py_ssize_t n = 0;
	struct modalias_ctx *ctx = NULL;
	struct modalias_dev *dev = NULL;
	PyObject *ret = NULL;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|zO&:from_env", (char **)kwlist, &env, &subsystem,
					 opt_path_conv, &root))
		return NULL;
	if (!PyMapping_Check(env) || !PyObject_HasAttrString(env, "items")) {
		PyErr_SetString(PyExc_TypeError, "from_env() takes a mapping of variable names to values");
		goto out;
	}
	items = PyMapping_Items(env);
	if (!items)
		goto out;
	n = PyList_GET_SIZE(items);
	envp = PyMem_Calloc((size_t)n + 1, sizeof(char *));
	if (!envp) {
		PyErr_NoMemory();
		goto out;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *kv = PyList_GET_ITEM(items, i), *k, *v;
		const char *ks, *vs;
		Py_ssize_t kl, vl;
		if (!PyTuple_Check(kv) || PyTuple_GET_SIZE(kv) != 2) {
			PyErr_SetString(PyExc_TypeError, "mapping items must be pairs");
			goto out;
		}
		k = PyTuple_GET_ITEM(kv, 0);
		v = PyTuple_GET_ITEM(kv, 1);
		if (!PyUnicode_Check(k) || !PyUnicode_Check(v)) {
			PyErr_SetString(PyExc_TypeError, "environment names and values are str");
			goto out;
		}
		ks = PyUnicode_AsUTF8AndSize(k, &kl);
		vs = ks ? PyUnicode_AsUTF8AndSize(v, &vl) : NULL;
		if (!vs)
			goto out;
		if ((size_t)kl != strlen(ks) || (size_t)vl != strlen(vs) || kl == 0 || strchr(ks, '=')) {
			PyErr_Format(InputError, "bad environment variable name or value: %R", k);
			goto out;
		}
		envp[i] = PyMem_Malloc((size_t)kl + (size_t)vl + 2);
		if (!envp[i]) {
			PyErr_NoMemory();
			goto out;
		}
		memcpy(envp[i], ks, (size_t)kl);
		envp[i][kl] = '=';
		memcpy(envp[i] + kl + 1, vs, (size_t)vl + 1);
	}
	ctx = new_ctx(bytes_or_null(root));
	if (!ctx)
		goto out;
	log_reset();
	r = modalias_dev_new_from_env(ctx, subsystem, (const char *const *)envp, &dev);
	if (r < 0) {
		raise_errno(r, KIND_INPUT, NULL);
		goto out;
	}
	ret = device_wrap(type, dev);
out:
	if (envp) {
		for (Py_ssize_t i = 0; i < n; i++)
			PyMem_Free(envp[i]);
		PyMem_Free(envp);
	}
	modalias_ctx_unref(ctx);
	Py_XDECREF(items);
	Py_XDECREF(root);
	return ret;
}

static PyObject *do_from_sysfs(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "devpath", "sysfs_root", NULL };
	PyObject *path = NULL, *root = NULL, *ret = NULL;
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|O&:from_sysfs", (char **)kwlist, PyUnicode_FSConverter,
					 &path, opt_path_conv, &root))
		return NULL;
	ctx = new_ctx(bytes_or_null(root));
	if (!ctx)
		goto out;
	log_reset();
	r = modalias_dev_new_from_sysfs(ctx, PyBytes_AS_STRING(path), &dev);
	modalias_ctx_unref(ctx);
	if (r < 0) {
		raise_errno(r, KIND_IO, PyBytes_AS_STRING(path));
		goto out;
	}
	ret = device_wrap(type, dev);
out:
	Py_XDECREF(path);
	Py_XDECREF(root);
	return ret;
}

static PyObject *Device_parse(PyObject *cls, PyObject *args)
{
	return do_parse((PyTypeObject *)cls, args);
}

static PyObject *Device_from_env(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	return do_from_env((PyTypeObject *)cls, args, kwargs);
}

static PyObject *Device_from_sysfs(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	return do_from_sysfs((PyTypeObject *)cls, args, kwargs);
}

static PyMethodDef Device_methods[] = {
	{ "parse", Device_parse, METH_VARARGS | METH_CLASS,
	  "parse(modalias) -> Device\n\nTakes a modalias string apart, strictly: str() of the result "
	  "gives it back exactly.\nRaises InputError (a ValueError) naming the offending field." },
	{ "from_env", (PyCFunction)(void (*)(void))Device_from_env, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_env(env, subsystem=None, sysfs_root=None) -> Device\n\nThe device of a kernel event from "
	  "its variables (a mapping such as os.environ):\nMODALIAS when present, else the legacy hotplug "
	  "variables (PRODUCT/TYPE/INTERFACE,\nPCI_ID/PCI_SUBSYS_ID/PCI_CLASS, ...).  subsystem: argv[1] of "
	  "/sbin/hotplug, else SUBSYSTEM;\nsysfs_root: where $DEVPATH is looked up (default /sys)." },
	{ "from_sysfs", (PyCFunction)(void (*)(void))Device_from_sysfs, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_sysfs(devpath, sysfs_root=None) -> Device\n\nReads a device's modalias from sysfs (its "
	  "modalias attribute, its uevent, or its id attributes).\ndevpath is below the sysfs root, as "
	  "DEVPATH: '/devices/pci0000:00/0000:00:14.0'.\nRaises NotFoundError for a missing device, Error "
	  "(errno ENODATA) when it has no modalias." },
	{ "set", (PyCFunction)Device_set, METH_VARARGS,
	  "set(field, value)\n\nSets a field, replacing its values: value is str (hex for numbers), int, "
	  "a list of them (list fields only: TypeError for another field), or None to unset." },
	{ "add", (PyCFunction)Device_add, METH_VARARGS,
	  "add(field, value)\n\nAppends a value to a list field (OF compatibles, input bitmaps, ...)." },
	{ "unset", (PyCFunction)Device_unset, METH_VARARGS, "unset(field)\n\nClears a field." },
	{ "count", (PyCFunction)Device_count, METH_VARARGS,
	  "count(field) -> int\n\nHow many values the field holds (0 when unset)." },
	{ "get_uint", (PyCFunction)Device_get_uint, METH_VARARGS,
	  "get_uint(field, index=0) -> int\n\nA numeric field's value (the index-th of a list field).  "
	  "InputError (errno EDOM) for a wildcard." },
	{ "copy", (PyCFunction)Device_copy, METH_NOARGS, "copy() -> Device\n\nAn independent copy." },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Device_getset[] = {
	{ "bus", (getter)Device_get_bus, NULL, "The bus name: the modalias prefix ('usb', 'pci', ...).", NULL },
	{ "fields", (getter)Device_get_fields, NULL,
	  "A new dict of the set fields in modalias order: str values, lists for list fields\n"
	  "(a bus the library does not know has one field, 'raw').  A missing key raises\n"
	  "KeyError, saying \"unknown field 'X' of bus Y\" for a field the bus does not have.", NULL },
	{ "modalias", (getter)Device_get_modalias, NULL, "The modalias string (the same as str(device)).", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMappingMethods Device_as_mapping = {
	.mp_subscript = (binaryfunc)Device_subscript,
	.mp_ass_subscript = (objobjargproc)Device_ass_subscript,
};

static PySequenceMethods Device_as_sequence = {
	.sq_contains = (objobjproc)Device_contains,
};

static PyTypeObject DeviceType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Device",
	.tp_basicsize = sizeof(DeviceObject),
	.tp_dealloc = (destructor)Device_dealloc,
	.tp_repr = (reprfunc)Device_repr,
	.tp_str = (reprfunc)Device_str,
	.tp_as_mapping = &Device_as_mapping,
	.tp_as_sequence = &Device_as_sequence,
	.tp_hash = PyObject_HashNotImplemented,
	.tp_richcompare = Device_richcompare,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "Device(bus, /, **fields)\n\n"
		  "A device as its modalias describes it: a bus and the values of its fields.\n"
		  "str(device) is the modalias the kernel would emit.  Fields are read and set\n"
		  "with device[field] (str, or list for list fields), set(), add() and unset();\n"
		  "numbers are hex text or int.  Build one from IDs (Device('usb', idVendor='046d')),\n"
		  "from a modalias (Device.parse), an event environment (Device.from_env) or sysfs\n"
		  "(Device.from_sysfs).",
	.tp_methods = Device_methods,
	.tp_getset = Device_getset,
	.tp_new = Device_new,
};

/* ---- module functions over devices ---------------------------------------------- */

static PyObject *mod_build(PyObject *self, PyObject *args, PyObject *kwargs)
{
	const char *bus;
	struct modalias_dev *dev;
	PyObject *s;

	if (!PyArg_ParseTuple(args, "s:build", &bus))
		return NULL;
	dev = dev_new_bus(bus);
	if (!dev)
		return NULL;
	if (device_set_kwargs(dev, kwargs) < 0) {
		modalias_dev_unref(dev);
		return NULL;
	}
	s = device_format(dev);
	modalias_dev_unref(dev);
	return s;
}

static PyObject *mod_parse(PyObject *self, PyObject *args)
{
	return do_parse(&DeviceType, args);
}

static PyObject *mod_from_env(PyObject *self, PyObject *args, PyObject *kwargs)
{
	return do_from_env(&DeviceType, args, kwargs);
}

static PyObject *mod_from_sysfs(PyObject *self, PyObject *args, PyObject *kwargs)
{
	return do_from_sysfs(&DeviceType, args, kwargs);
}

struct walk {
	PyObject *list;
	int failed;
};

static int walk_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct walk *w = data;
	PyObject *e = PyStructSequence_New(SysfsEntryType), *d;

	if (!e)
		goto fail;
	if (dev) {
		d = device_wrap(&DeviceType, modalias_dev_ref(dev));
		if (!d)
			goto fail;
	} else {
		d = Py_None;
		Py_INCREF(d);
	}
	PyStructSequence_SET_ITEM(e, 0, PyUnicode_DecodeFSDefault(devpath));
	PyStructSequence_SET_ITEM(e, 1, d);
	PyStructSequence_SET_ITEM(e, 2, PyLong_FromLong(err < 0 ? -err : err));
	if (!PyStructSequence_GET_ITEM(e, 0) || !PyStructSequence_GET_ITEM(e, 2) || PyList_Append(w->list, e) < 0)
		goto fail;
	Py_DECREF(e);
	return 0;
fail:
	Py_XDECREF(e);
	w->failed = 1;
	return 1;
}

static PyObject *mod_walk_sysfs(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "sysfs_root", NULL };
	PyObject *root = NULL;
	struct modalias_ctx *ctx;
	struct walk w = { NULL, 0 };
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O&:walk_sysfs", (char **)kwlist, opt_path_conv, &root))
		return NULL;
	ctx = new_ctx(bytes_or_null(root));
	if (!ctx)
		goto fail;
	w.list = PyList_New(0);
	if (!w.list) {
		modalias_ctx_unref(ctx);
		goto fail;
	}
	log_reset();
	r = modalias_sysfs_foreach(ctx, walk_one, &w);
	modalias_ctx_unref(ctx);
	if (w.failed)
		goto fail;
	if (r < 0) {
		raise_errno(r, KIND_IO, root ? PyBytes_AS_STRING(root) : "/sys");
		goto fail;
	}
	log_reset();
	Py_XDECREF(root);
	return w.list;
fail:
	Py_XDECREF(w.list);
	Py_XDECREF(root);
	return NULL;
}

static PyObject *mod_buses(PyObject *self, PyObject *unused)
{
	PyObject *l = PyList_New(0);
	const char *b;

	for (unsigned int i = 0; l && (b = modalias_bus_name(i)); i++) {
		PyObject *s = PyUnicode_FromString(b);
		if (!s || PyList_Append(l, s) < 0) {
			Py_XDECREF(s);
			Py_CLEAR(l);
			break;
		}
		Py_DECREF(s);
	}
	return l;
}

static bool bus_known(const char *bus)
{
	const char *b;

	for (unsigned int i = 0; (b = modalias_bus_name(i)); i++)
		if (strcmp(b, bus) == 0)
			return true;
	return false;
}

static PyObject *mod_bus_fields(PyObject *self, PyObject *args)
{
	const char *bus, *f;
	PyObject *l;

	if (!PyArg_ParseTuple(args, "s:bus_fields", &bus))
		return NULL;
	if (!bus_known(bus)) {
		PyErr_Format(InputError, "unknown bus '%s' (see modalias.buses())", bus);
		return NULL;
	}
	l = PyList_New(0);
	for (unsigned int i = 0; l && (f = modalias_bus_field_name(bus, i)); i++) {
		PyObject *s = PyUnicode_FromString(f);
		if (!s || PyList_Append(l, s) < 0) {
			Py_XDECREF(s);
			Py_CLEAR(l);
			break;
		}
		Py_DECREF(s);
	}
	return l;
}

static PyObject *mod_field_help(PyObject *self, PyObject *args)
{
	const char *bus, *field, *help;

	if (!PyArg_ParseTuple(args, "ss:field_help", &bus, &field))
		return NULL;
	help = modalias_bus_field_help(bus, field);
	if (!help) {
		PyErr_Format(InputError, "unknown field '%s' of bus %s", field, bus);
		return NULL;
	}
	return PyUnicode_FromString(help);
}

/* ---- Table ------------------------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	struct modalias_table *table; /* NULL once closed */
	pthread_rwlock_t lock;        /* read: lookups; write: changes */
	int skipped;
} TableObject;

static PyTypeObject TableType;

static TableObject *table_alloc(PyTypeObject *type)
{
	TableObject *self = (TableObject *)type->tp_alloc(type, 0);

	if (!self)
		return NULL;
	self->table = NULL;
	self->skipped = 0;
	pthread_rwlock_init(&self->lock, NULL);
	return self;
}

static void Table_dealloc(TableObject *self)
{
	modalias_table_unref(self->table);
	pthread_rwlock_destroy(&self->lock);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Builds the index so that lookups only read (with the write lock held). */
static int table_prepare_locked(struct modalias_table *t)
{
	return modalias_table_prepare(t);
}

static PyObject *table_finish_new(TableObject *self, struct modalias_table *t, int r, const char *what,
				  const char *filename)
{
	if (r < 0) {
		modalias_table_unref(t);
		Py_DECREF(self);
		return raise_errno(r, KIND_IO, filename);
	}
	self->table = t;
	self->skipped = r;
	if (warn_skipped(r, what) < 0) {
		Py_DECREF(self);
		return NULL;
	}
	r = table_prepare_locked(t);
	if (r < 0) {
		Py_DECREF(self);
		return raise_errno(r, KIND_IO, NULL);
	}
	return (PyObject *)self;
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "directory", "cache_dir", NULL };
	PyObject *dir = NULL, *cache = NULL, *ret;
	TableObject *self;
	struct modalias_ctx *ctx;
	struct modalias_table *t = NULL;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O&O&:Table", (char **)kwlist, opt_path_conv, &dir,
					 opt_path_conv, &cache))
		return NULL;
	ctx = new_ctx(NULL);
	self = ctx ? table_alloc(type) : NULL;
	if (!self) {
		modalias_ctx_unref(ctx);
		Py_XDECREF(dir);
		Py_XDECREF(cache);
		return NULL;
	}
	log_reset();
	{
		const char *d = bytes_or_null(dir), *c = bytes_or_null(cache);

		Py_BEGIN_ALLOW_THREADS
		r = modalias_table_open(ctx, d, c, &t);
		Py_END_ALLOW_THREADS
	}
	modalias_ctx_unref(ctx);
	ret = table_finish_new(self, t, r, dir ? PyBytes_AS_STRING(dir) : "modules.alias",
			       dir ? PyBytes_AS_STRING(dir) : NULL);
	Py_XDECREF(dir);
	Py_XDECREF(cache);
	return ret;
}

static TableObject *table_new_empty(PyTypeObject *type, struct modalias_table **t)
{
	struct modalias_ctx *ctx = new_ctx(NULL);
	TableObject *self;
	int r;

	if (!ctx)
		return NULL;
	r = modalias_table_new(ctx, t);
	modalias_ctx_unref(ctx);
	if (r < 0) {
		raise_errno(r, KIND_IO, NULL);
		return NULL;
	}
	self = table_alloc(type);
	if (!self) {
		modalias_table_unref(*t);
		return NULL;
	}
	return self;
}

static PyObject *Table_empty(PyObject *cls, PyObject *unused)
{
	struct modalias_table *t = NULL;
	TableObject *self = table_new_empty((PyTypeObject *)cls, &t);

	if (!self)
		return NULL;
	return table_finish_new(self, t, 0, "", NULL);
}

static PyObject *Table_from_file(PyObject *cls, PyObject *args)
{
	PyObject *path = NULL, *ret;
	struct modalias_table *t = NULL;
	TableObject *self;
	int r;

	if (!PyArg_ParseTuple(args, "O&:from_file", PyUnicode_FSConverter, &path))
		return NULL;
	self = table_new_empty((PyTypeObject *)cls, &t);
	if (!self) {
		Py_DECREF(path);
		return NULL;
	}
	log_reset();
	{
		const char *p = PyBytes_AS_STRING(path);

		Py_BEGIN_ALLOW_THREADS
		r = modalias_table_load_file(t, p);
		Py_END_ALLOW_THREADS
	}
	ret = table_finish_new(self, t, r, PyBytes_AS_STRING(path), PyBytes_AS_STRING(path));
	Py_DECREF(path);
	return ret;
}

static PyObject *Table_from_string(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "text", "name", NULL };
	const char *text, *name = NULL;
	Py_ssize_t len;
	struct modalias_table *t = NULL;
	TableObject *self;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#|z:from_string", (char **)kwlist, &text, &len, &name))
		return NULL;
	self = table_new_empty((PyTypeObject *)cls, &t);
	if (!self)
		return NULL;
	log_reset();
	r = modalias_table_load_buffer(t, name, text, (size_t)len);
	return table_finish_new(self, t, r, name ? name : "(string)", NULL);
}

static PyObject *Table_from_cache(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "path", "directory", NULL };
	PyObject *path = NULL, *dir = NULL, *ret;
	struct modalias_ctx *ctx;
	struct modalias_table *t = NULL;
	TableObject *self;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|O&:from_cache", (char **)kwlist, PyUnicode_FSConverter,
					 &path, opt_path_conv, &dir))
		return NULL;
	ctx = new_ctx(NULL);
	self = ctx ? table_alloc((PyTypeObject *)cls) : NULL;
	if (!self) {
		modalias_ctx_unref(ctx);
		Py_DECREF(path);
		Py_XDECREF(dir);
		return NULL;
	}
	log_reset();
	{
		const char *p = PyBytes_AS_STRING(path), *d = bytes_or_null(dir);

		Py_BEGIN_ALLOW_THREADS
		r = modalias_table_new_from_cache(ctx, p, d, &t);
		Py_END_ALLOW_THREADS
	}
	modalias_ctx_unref(ctx);
	ret = table_finish_new(self, t, r, PyBytes_AS_STRING(path), PyBytes_AS_STRING(path));
	Py_DECREF(path);
	Py_XDECREF(dir);
	return ret;
}

/* Takes a C reference to the open table (GIL held), or raises. */
static struct modalias_table *table_get(TableObject *self)
{
	if (!self->table) {
		raise_closed("Table");
		return NULL;
	}
	return modalias_table_ref(self->table);
}

static void table_put(struct modalias_table *t)
{
	modalias_table_unref(t);
}

/* A change, under the write lock, the index rebuilt after it. */
typedef int (*table_change_fn)(struct modalias_table *t, void *data);

static int table_change(TableObject *self, table_change_fn fn, void *data, int *result)
{
	struct modalias_table *t = table_get(self);
	int r, p = 0;

	if (!t)
		return -1;
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	pthread_rwlock_wrlock(&self->lock);
	r = fn(t, data);
	if (r >= 0)
		p = table_prepare_locked(t);
	pthread_rwlock_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	table_put(t);
	if (r >= 0 && p < 0)
		r = p;
	*result = r;
	return 0;
}

struct add_args {
	const char *a, *b; /* C memory, or bytes this call owns */
	size_t len;
	const char *const *v;
	const void *map;
	unsigned int flags;
};

static int change_add(struct modalias_table *t, void *data)
{
	struct add_args *a = data;
	return modalias_table_add(t, a->a, a->b);
}

static int change_blacklist(struct modalias_table *t, void *data)
{
	struct add_args *a = data;
	return modalias_table_add_blacklist(t, a->a);
}

static int change_load_file(struct modalias_table *t, void *data)
{
	struct add_args *a = data;
	return modalias_table_load_file(t, a->a);
}

static int change_load_buffer(struct modalias_table *t, void *data)
{
	struct add_args *a = data;
	return modalias_table_load_buffer(t, a->b, a->a, a->len);
}

static int change_load_config(struct modalias_table *t, void *data)
{
	struct add_args *a = data;
	return modalias_table_load_config(t, a->v);
}

static int change_load_map(struct modalias_table *t, void *data)
{
	struct add_args *a = data;
	return modalias_table_load_map(t, a->map, a->flags);
}

static PyObject *Table_add(TableObject *self, PyObject *args)
{
	struct add_args a = { 0 };
	const char *pattern, *module;
	char *pc = NULL, *mc = NULL;
	int r, rc;

	if (!PyArg_ParseTuple(args, "ss:add", &pattern, &module))
		return NULL;
	if (cstr_dup(pattern, &pc) < 0 || cstr_dup(module, &mc) < 0) {
		free(pc);
		return NULL;
	}
	a.a = pc;
	a.b = mc;
	rc = table_change(self, change_add, &a, &r);
	free(pc);
	free(mc);
	if (rc < 0)
		return NULL;
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	Py_RETURN_NONE;
}

static PyObject *Table_add_blacklist(TableObject *self, PyObject *args)
{
	struct add_args a = { 0 };
	const char *module;
	char *mc;
	int r, rc;

	if (!PyArg_ParseTuple(args, "s:add_blacklist", &module) || cstr_dup(module, &mc) < 0)
		return NULL;
	a.a = mc;
	rc = table_change(self, change_blacklist, &a, &r);
	free(mc);
	if (rc < 0)
		return NULL;
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	Py_RETURN_NONE;
}

static PyObject *Table_is_blacklisted(TableObject *self, PyObject *args)
{
	const char *module;
	char *mc;
	struct modalias_table *t;
	bool b;

	if (!PyArg_ParseTuple(args, "s:is_blacklisted", &module) || cstr_dup(module, &mc) < 0)
		return NULL;
	t = table_get(self);
	if (!t) {
		free(mc);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	pthread_rwlock_rdlock(&self->lock);
	b = modalias_table_is_blacklisted(t, mc);
	pthread_rwlock_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	table_put(t);
	free(mc);
	return PyBool_FromLong(b);
}

static PyObject *Table_load_file(TableObject *self, PyObject *args)
{
	PyObject *path = NULL;
	struct add_args a = { 0 };
	int r, skipped;

	if (!PyArg_ParseTuple(args, "O&:load_file", PyUnicode_FSConverter, &path))
		return NULL;
	a.a = PyBytes_AS_STRING(path);
	if (table_change(self, change_load_file, &a, &r) < 0) {
		Py_DECREF(path);
		return NULL;
	}
	if (r < 0) {
		raise_errno(r, KIND_IO, a.a);
		Py_DECREF(path);
		return NULL;
	}
	skipped = r;
	self->skipped += r;
	r = warn_skipped(r, a.a);
	Py_DECREF(path);
	return r < 0 ? NULL : PyLong_FromLong(skipped);
}

static PyObject *Table_load_string(TableObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "text", "name", NULL };
	struct add_args a = { 0 };
	const char *text, *name = NULL;
	char *tc, *nc = NULL;
	Py_ssize_t len;
	int r, rc;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#|z:load_string", (char **)kwlist, &text, &len, &name))
		return NULL;
	/* the text may be a value of a dict another thread changes */
	tc = malloc((size_t)len + 1);
	if (!tc)
		return PyErr_NoMemory();
	if (cstr_dup(name, &nc) < 0) {
		free(tc);
		return NULL;
	}
	memcpy(tc, text, (size_t)len);
	tc[len] = '\0';
	a.a = tc;
	a.b = nc;
	a.len = (size_t)len;
	rc = table_change(self, change_load_buffer, &a, &r);
	free(tc);
	if (rc < 0 || r < 0) {
		free(nc);
		return rc < 0 ? NULL : raise_errno(r, KIND_INPUT, NULL);
	}
	self->skipped += r;
	rc = warn_skipped(r, nc ? nc : "(string)");
	free(nc);
	return rc < 0 ? NULL : PyLong_FromLong(r);
}

static PyObject *Table_load_config(TableObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "paths", NULL };
	PyObject *paths = Py_None;
	struct path_list pl;
	struct add_args a = { 0 };
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:load_config", (char **)kwlist, &paths))
		return NULL;
	if (path_list_init(&pl, paths) < 0)
		return NULL;
	a.v = pl.v;
	if (table_change(self, change_load_config, &a, &r) < 0) {
		path_list_clear(&pl);
		return NULL;
	}
	path_list_clear(&pl);
	if (r < 0)
		return raise_errno(r, KIND_IO, NULL);
	log_reset();
	Py_RETURN_NONE;
}

static PyObject *Table_save(TableObject *self, PyObject *args)
{
	PyObject *path = NULL;
	struct modalias_table *t;
	const char *p;
	int r;

	if (!PyArg_ParseTuple(args, "O&:save", PyUnicode_FSConverter, &path))
		return NULL;
	t = table_get(self);
	if (!t) {
		Py_DECREF(path);
		return NULL;
	}
	log_reset();
	p = PyBytes_AS_STRING(path);
	Py_BEGIN_ALLOW_THREADS
	pthread_rwlock_rdlock(&self->lock);
	r = modalias_table_save(t, p);
	pthread_rwlock_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	table_put(t);
	if (r < 0) {
		raise_errno(r, KIND_IO, PyBytes_AS_STRING(path));
		Py_DECREF(path);
		return NULL;
	}
	Py_DECREF(path);
	Py_RETURN_NONE;
}

static PyObject *intern_source(const char *src)
{
	return PyUnicode_InternFromString(src);
}

/* The modules of a result as a list of Module (GIL and read lock held). */
static PyObject *result_to_list(struct modalias_result *res, int n)
{
	PyObject *list = PyList_New(n), *source = NULL;
	const char *src = modalias_result_get_source(res);

	if (!list)
		return NULL;
	if (n > 0) {
		source = intern_source(src ? src : "");
		if (!source)
			goto fail;
	}
	for (int i = 0; i < n; i++) {
		unsigned int np = modalias_result_get_pattern_count(res, (unsigned int)i);
		PyObject *m = PyStructSequence_New(ModuleType), *pats, *origins;
		const char *name = modalias_result_get_module(res, (unsigned int)i);

		if (!m)
			goto fail;
		PyList_SET_ITEM(list, i, m);
		pats = PyTuple_New(np);
		origins = PyTuple_New(np);
		PyStructSequence_SET_ITEM(m, 0, PyUnicode_FromString(name ? name : ""));
		PyStructSequence_SET_ITEM(m, 1, PyBool_FromLong(modalias_result_is_builtin(res, (unsigned int)i)));
		PyStructSequence_SET_ITEM(m, 2, pats);
		Py_INCREF(source);
		PyStructSequence_SET_ITEM(m, 3, source);
		PyStructSequence_SET_ITEM(m, 4, origins);
		if (!pats || !origins || !PyStructSequence_GET_ITEM(m, 0))
			goto fail;
		for (unsigned int k = 0; k < np; k++) {
			unsigned int line = 0;
			const char *p = modalias_result_get_pattern(res, (unsigned int)i, k);
			const char *o = modalias_result_get_pattern_origin(res, (unsigned int)i, k, &line);
			PyObject *ps = PyUnicode_DecodeUTF8(p ? p : "", (Py_ssize_t)strlen(p ? p : ""), "surrogateescape");
			PyObject *ot = Py_BuildValue("(NI)", PyUnicode_DecodeFSDefault(o ? o : ""), line);
			if (!ps || !ot) {
				Py_XDECREF(ps);
				Py_XDECREF(ot);
				goto fail;
			}
			PyTuple_SET_ITEM(pats, k, ps);
			PyTuple_SET_ITEM(origins, k, ot);
		}
	}
	Py_XDECREF(source);
	return list;
fail:
	Py_XDECREF(source);
	Py_DECREF(list);
	return NULL;
}

static const char *alias_arg(PyObject *o)
{
	Py_ssize_t len;
	const char *s;

	if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "aliases are str, not %.100s", Py_TYPE(o)->tp_name);
		return NULL;
	}
	s = PyUnicode_AsUTF8AndSize(o, &len);
	if (s && (size_t)len != strlen(s)) {
		PyErr_SetString(InputError, "embedded null character in alias");
		return NULL;
	}
	return s;
}

/* One lookup: GIL released for the lookup, read lock held until the
 * answer is copied into Python objects. */
static PyObject *table_resolve_one(TableObject *self, struct modalias_table *t, struct modalias_result *res,
				   const char *alias)
{
	PyObject *list;
	int n;

	Py_BEGIN_ALLOW_THREADS
	pthread_rwlock_rdlock(&self->lock);
	n = modalias_table_lookup(t, alias, res);
	Py_END_ALLOW_THREADS
	if (n < 0) {
		pthread_rwlock_unlock(&self->lock);
		return raise_errno(n, KIND_INPUT, NULL);
	}
	list = result_to_list(res, n);
	pthread_rwlock_unlock(&self->lock);
	return list;
}

static PyObject *Table_resolve(TableObject *self, PyObject *arg)
{
	const char *alias = alias_arg(arg);
	char *copy;
	struct modalias_table *t;
	struct modalias_result *res = NULL;
	PyObject *list;
	int r;

	if (!alias || cstr_dup(alias, &copy) < 0)
		return NULL;
	t = table_get(self);
	if (!t) {
		free(copy);
		return NULL;
	}
	r = modalias_result_new(&res);
	if (r < 0) {
		free(copy);
		table_put(t);
		return raise_errno(r, KIND_IO, NULL);
	}
	log_reset();
	list = table_resolve_one(self, t, res, copy);
	modalias_result_unref(res);
	table_put(t);
	free(copy);
	return list;
}

/* The aliases of one resolve_many(), copied into C memory before the first
 * lookup: the GIL is released for each lookup, and meanwhile another
 * thread may empty the list, shrink it, or replace its strings (freeing
 * them).  The call resolves the aliases the iterable held when it began. */
struct alias_batch {
	char *text;    /* the aliases, each NUL-terminated, one after another */
	size_t *start; /* where each begins in text */
	Py_ssize_t n;
};

static void alias_batch_clear(struct alias_batch *b)
{
	free(b->text);
	free(b->start);
	memset(b, 0, sizeof(*b));
}

static int alias_batch_init(struct alias_batch *b, PyObject *iterable)
{
	/* a tuple of our own: owned references, out of other threads' reach */
	PyObject *seq = PySequence_Fast(iterable, "resolve_many() takes an iterable of str"), *items;
	size_t total = 0, pos = 0;

	memset(b, 0, sizeof(*b));
	if (!seq)
		return -1;
	items = PySequence_Tuple(seq);
	Py_DECREF(seq);
	if (!items)
		return -1;
	b->n = PyTuple_GET_SIZE(items);
	for (Py_ssize_t i = 0; i < b->n; i++) {
		const char *alias = alias_arg(PyTuple_GET_ITEM(items, i));
		if (!alias)
			goto fail;
		total += strlen(alias) + 1;
	}
	b->text = malloc(total ? total : 1);
	b->start = malloc((size_t)(b->n ? b->n : 1) * sizeof(*b->start));
	if (!b->text || !b->start) {
		PyErr_NoMemory();
		goto fail;
	}
	for (Py_ssize_t i = 0; i < b->n; i++) {
		/* alias_arg() succeeded above: the UTF-8 form is cached */
		const char *alias = PyUnicode_AsUTF8(PyTuple_GET_ITEM(items, i));
		size_t len = strlen(alias) + 1;

		b->start[i] = pos;
		memcpy(b->text + pos, alias, len);
		pos += len;
	}
	Py_DECREF(items);
	return 0;
fail:
	Py_DECREF(items);
	alias_batch_clear(b);
	return -1;
}

static PyObject *Table_resolve_many(TableObject *self, PyObject *arg)
{
	struct alias_batch batch;
	struct modalias_table *t = NULL;
	struct modalias_result *res = NULL;
	PyObject *out = NULL;
	int r;

	if (alias_batch_init(&batch, arg) < 0)
		return NULL;
	t = table_get(self);
	if (!t)
		goto done;
	r = modalias_result_new(&res);
	if (r < 0) {
		raise_errno(r, KIND_IO, NULL);
		goto done;
	}
	out = PyList_New(batch.n);
	if (!out)
		goto done;
	for (Py_ssize_t i = 0; i < batch.n; i++) {
		PyObject *l;

		log_reset();
		l = table_resolve_one(self, t, res, batch.text + batch.start[i]);
		if (!l) {
			Py_CLEAR(out);
			goto done;
		}
		PyList_SET_ITEM(out, i, l);
	}
done:
	modalias_result_unref(res);
	table_put(t);
	alias_batch_clear(&batch);
	return out;
}

static PyObject *Table_load_map(TableObject *self, PyObject *args, PyObject *kwargs);
static PyObject *Table_write_map(TableObject *self, PyObject *args);

static PyObject *Table_close(TableObject *self, PyObject *unused)
{
	struct modalias_table *t = self->table;

	/* lookups in flight hold their own reference */
	self->table = NULL;
	modalias_table_unref(t);
	Py_RETURN_NONE;
}

static PyObject *Table_enter(TableObject *self, PyObject *unused)
{
	if (!self->table)
		return raise_closed("Table");
	Py_INCREF(self);
	return (PyObject *)self;
}

static PyObject *Table_exit(TableObject *self, PyObject *args)
{
	return Table_close(self, NULL);
}

static PyObject *Table_get_closed(TableObject *self, void *closure)
{
	return PyBool_FromLong(self->table == NULL);
}

static PyObject *Table_get_pattern_count(TableObject *self, void *closure)
{
	struct modalias_table *t = table_get(self);
	int n;

	if (!t)
		return NULL;
	n = modalias_table_get_pattern_count(t);
	table_put(t);
	return PyLong_FromLong(n);
}

static PyObject *Table_get_memory(TableObject *self, void *closure)
{
	struct modalias_table *t = table_get(self);
	size_t bytes = 0;
	int r;

	if (!t)
		return NULL;
	r = modalias_table_get_memory(t, &bytes);
	table_put(t);
	if (r < 0)
		return raise_errno(r, KIND_IO, NULL);
	return PyLong_FromSize_t(bytes);
}

static PyObject *Table_get_skipped(TableObject *self, void *closure)
{
	return PyLong_FromLong(self->skipped);
}

static PyMethodDef Table_methods[] = {
	{ "empty", Table_empty, METH_NOARGS | METH_CLASS,
	  "empty() -> Table\n\nA table with no aliases (fill it with add(), load_string(), load_map())." },
	{ "from_file", Table_from_file, METH_VARARGS | METH_CLASS,
	  "from_file(path) -> Table\n\nA table of one file of 'alias PATTERN MODULE' lines (another "
	  "kernel's modules.alias).\nMalformed lines are skipped with a ParseWarning and counted in "
	  ".skipped." },
	{ "from_string", (PyCFunction)(void (*)(void))Table_from_string, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_string(text, name=None) -> Table\n\nA table of 'alias PATTERN MODULE' lines; name is "
	  "their origin in messages and Module.origins." },
	{ "from_cache", (PyCFunction)(void (*)(void))Table_from_cache, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_cache(path, directory=None) -> Table\n\nMaps an index cache written by save().  With "
	  "directory, the cache must be current for it\n(Error with errno ESTALE otherwise)." },
	{ "add", (PyCFunction)Table_add, METH_VARARGS,
	  "add(pattern, module)\n\nAdds a glob pattern for a module to the modules.alias source." },
	{ "add_blacklist", (PyCFunction)Table_add_blacklist, METH_VARARGS,
	  "add_blacklist(module)\n\nMarks a module as blacklisted (lookups still report it)." },
	{ "is_blacklisted", (PyCFunction)Table_is_blacklisted, METH_VARARGS,
	  "is_blacklisted(module) -> bool\n\nWhether modprobe.d or add_blacklist() blacklists the module." },
	{ "load_file", (PyCFunction)Table_load_file, METH_VARARGS,
	  "load_file(path) -> int\n\nAdds the aliases of a file; returns the number of malformed lines "
	  "skipped." },
	{ "load_string", (PyCFunction)(void (*)(void))Table_load_string, METH_VARARGS | METH_KEYWORDS,
	  "load_string(text, name=None) -> int\n\nAdds 'alias PATTERN MODULE' lines; returns the number "
	  "skipped." },
	{ "load_config", (PyCFunction)(void (*)(void))Table_load_config, METH_VARARGS | METH_KEYWORDS,
	  "load_config(paths=None)\n\nAdds the alias lines, blacklists and install/remove commands of the "
	  "modprobe\nconfiguration (through libkmod): paths is None for the system's, a path or a list\n"
	  "of files and directories, [] for none." },
	{ "load_map", (PyCFunction)(void (*)(void))Table_load_map, METH_VARARGS | METH_KEYWORDS,
	  "load_map(map, dialect_2_6=False) -> int\n\nAdds the patterns of every row of a Map; returns "
	  "the number of rows that gave none." },
	{ "write_map", (PyCFunction)Table_write_map, METH_VARARGS,
	  "write_map(type) -> str\n\nThe patterns of one bus as a legacy map file (type: 'usb', 'pci', "
	  "'ieee1394',\n'ccw', 'serio' or 'of')." },
	{ "save", (PyCFunction)Table_save, METH_VARARGS,
	  "save(path)\n\nWrites the table's index cache (see from_cache())." },
	{ "resolve", (PyCFunction)Table_resolve, METH_O,
	  "resolve(alias) -> list[Module]\n\nThe modules for a modalias (or module name, or "
	  "'symbol:NAME'), as\nkmod_module_new_from_lookup() and modprobe -R answer: each module once,\nin "
	  "modules.order order; [] when nothing matches.  The GIL is released\nduring the lookup; threads "
	  "may share a table." },
	{ "resolve_many", (PyCFunction)Table_resolve_many, METH_O,
	  "resolve_many(aliases) -> list[list[Module]]\n\nresolve() for each alias of an iterable, in "
	  "order.  The aliases are copied\nwhen the call begins: changes another thread makes to the list "
	  "meanwhile\ndo not affect it." },
	{ "close", (PyCFunction)Table_close, METH_NOARGS,
	  "close()\n\nReleases the C table now (lookups in flight finish first); later calls raise\n"
	  "ValueError.  Closing twice is harmless." },
	{ "__enter__", (PyCFunction)Table_enter, METH_NOARGS, "Returns the table." },
	{ "__exit__", (PyCFunction)Table_exit, METH_VARARGS, "Closes the table." },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Table_getset[] = {
	{ "closed", (getter)Table_get_closed, NULL, "Whether close() was called.", NULL },
	{ "pattern_count", (getter)Table_get_pattern_count, NULL, "The number of patterns of the modules.alias source.", NULL },
	{ "memory", (getter)Table_get_memory, NULL, "Bytes taken by its strings, patterns and index.", NULL },
	{ "skipped", (getter)Table_get_skipped, NULL, "The number of malformed lines skipped while loading.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject TableType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Table",
	.tp_basicsize = sizeof(TableObject),
	.tp_dealloc = (destructor)Table_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "Table(directory=None, cache_dir=None)\n\n"
		  "An alias table: which modules does a modalias want?  It answers as libkmod's\n"
		  "kmod_module_new_from_lookup() does, from a kernel's module directory (None:\n"
		  "/lib/modules/$(uname -r); NotFoundError without a modules.alias), through an\n"
		  "index cache in cache_dir when given.  Also Table.from_file(), from_string(),\n"
		  "from_cache(), empty().  A context manager; close() releases it.  Lookups may\n"
		  "run in several threads at once.",
	.tp_methods = Table_methods,
	.tp_getset = Table_getset,
	.tp_new = Table_new,
};

/* ---- Map --------------------------------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	struct modalias_map *map;
	int skipped;
} MapObject;

static PyTypeObject MapType;

static int map_type_arg(PyObject *o, int *type)
{
	if (!o || o == Py_None) {
		*type = -1;
		return 0;
	}
	if (PyLong_Check(o)) {
		long v = PyLong_AsLong(o);
		if (v == -1 && PyErr_Occurred())
			return -1;
		if (!modalias_map_type_name((int)v)) {
			PyErr_Format(InputError, "unknown map type %ld", v);
			return -1;
		}
		*type = (int)v;
		return 0;
	}
	if (PyUnicode_Check(o)) {
		const char *s = PyUnicode_AsUTF8(o);
		if (!s)
			return -1;
		*type = modalias_map_type_from_name(s);
		if (*type >= 0)
			return 0;
		PyErr_Format(InputError, "unknown map type '%s' (usb, pci, ieee1394, ccw, isapnp, input, of, serio)", s);
		return -1;
	}
	PyErr_SetString(PyExc_TypeError, "a map type is a name ('usb', ...), a MAP_* number or None");
	return -1;
}

static PyObject *map_finish_new(PyTypeObject *type, struct modalias_map *map, int r, const char *what,
				const char *filename)
{
	MapObject *self;

	if (r < 0)
		return raise_errno(r, KIND_IO, filename);
	self = (MapObject *)type->tp_alloc(type, 0);
	if (!self) {
		modalias_map_unref(map);
		return NULL;
	}
	self->map = map;
	self->skipped = r;
	if (warn_skipped(r, what) < 0) {
		Py_DECREF(self);
		return NULL;
	}
	return (PyObject *)self;
}

static PyObject *Map_from_file(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "path", "type", NULL };
	PyObject *path = NULL, *typeo = Py_None, *ret;
	struct modalias_ctx *ctx;
	struct modalias_map *map = NULL;
	int type, r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|O:from_file", (char **)kwlist, PyUnicode_FSConverter, &path,
					 &typeo))
		return NULL;
	if (map_type_arg(typeo, &type) < 0 || !(ctx = new_ctx(NULL))) {
		Py_DECREF(path);
		return NULL;
	}
	log_reset();
	r = modalias_map_new_from_file(ctx, PyBytes_AS_STRING(path), type, &map);
	modalias_ctx_unref(ctx);
	ret = map_finish_new((PyTypeObject *)cls, map, r, PyBytes_AS_STRING(path), PyBytes_AS_STRING(path));
	Py_DECREF(path);
	return ret;
}

static PyObject *Map_from_string(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "text", "name", "type", NULL };
	const char *text, *name = NULL;
	Py_ssize_t len;
	PyObject *typeo = Py_None;
	struct modalias_ctx *ctx;
	struct modalias_map *map = NULL;
	int type, r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#|zO:from_string", (char **)kwlist, &text, &len, &name, &typeo))
		return NULL;
	if (map_type_arg(typeo, &type) < 0 || !(ctx = new_ctx(NULL)))
		return NULL;
	log_reset();
	r = modalias_map_new_from_buffer(ctx, name, text, (size_t)len, type, &map);
	modalias_ctx_unref(ctx);
	return map_finish_new((PyTypeObject *)cls, map, r, name ? name : "(string)", NULL);
}

static PyObject *Map_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	return Map_from_file((PyObject *)type, args, kwargs);
}

static void Map_dealloc(MapObject *self)
{
	modalias_map_unref(self->map);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static bool map_field_is_list(int type, const char *field)
{
	size_t n = strlen(field);

	if (type == MODALIAS_MAP_INPUT)
		return n > 4 && strcmp(field + n - 4, "Bits") == 0 && strcmp(field, "matchBits") != 0;
	if (type == MODALIAS_MAP_ISAPNP)
		return strcmp(field, "vendor") == 0 || strcmp(field, "function") == 0;
	return false;
}

static PyObject *map_entry(MapObject *self, unsigned int index)
{
	struct modalias_map *map = self->map;
	int type = modalias_map_get_type(map);
	const char *module = modalias_map_get_module(map, index), *f;
	PyObject *e, *fields;

	e = PyStructSequence_New(MapEntryType);
	fields = PyDict_New();
	if (!e || !fields)
		goto fail;
	for (unsigned int c = 0; (f = modalias_map_type_field_name(type, c)); c++) {
		int count = modalias_map_get_field_count(map, index, f);
		PyObject *v = NULL;
		uint64_t u;
		const char *s;

		if (count < 0)
			continue;
		if (modalias_map_get_string(map, index, f, &s) == 0) {
			v = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "surrogateescape");
		} else if (map_field_is_list(type, f) || count != 1) {
			v = PyList_New(0);
			for (int k = 0; v && k < count; k++) {
				PyObject *x;
				if (modalias_map_get_field(map, index, f, (unsigned int)k, &u) < 0)
					continue;
				x = PyLong_FromUnsignedLongLong(u);
				if (!x || PyList_Append(v, x) < 0) {
					Py_XDECREF(x);
					Py_CLEAR(v);
					break;
				}
				Py_DECREF(x);
			}
		} else if (modalias_map_get_field(map, index, f, 0, &u) == 0) {
			v = PyLong_FromUnsignedLongLong(u);
		} else {
			continue;
		}
		if (!v || PyDict_SetItemString(fields, f, v) < 0) {
			Py_XDECREF(v);
			goto fail;
		}
		Py_DECREF(v);
	}
	PyStructSequence_SET_ITEM(e, 0, PyUnicode_FromString(module ? module : ""));
	PyStructSequence_SET_ITEM(e, 1, PyLong_FromUnsignedLong(modalias_map_get_line(map, index)));
	PyStructSequence_SET_ITEM(e, 2, fields);
	PyStructSequence_SET_ITEM(e, 3, PyLong_FromUnsignedLong(index));
	if (!PyStructSequence_GET_ITEM(e, 0) || !PyStructSequence_GET_ITEM(e, 1) || !PyStructSequence_GET_ITEM(e, 3)) {
		Py_DECREF(e);
		return NULL;
	}
	return e;
fail:
	Py_XDECREF(e);
	Py_XDECREF(fields);
	return NULL;
}

static int map_check(MapObject *self)
{
	if (!self->map) {
		raise_closed("Map");
		return -1;
	}
	return 0;
}

static Py_ssize_t Map_len(MapObject *self)
{
	int n;

	if (map_check(self) < 0)
		return -1;
	n = modalias_map_get_count(self->map);
	return n < 0 ? 0 : n;
}

static PyObject *Map_item(MapObject *self, Py_ssize_t i)
{
	Py_ssize_t n = Map_len(self);

	if (n < 0 && PyErr_Occurred())
		return NULL;
	if (i < 0 || i >= n) {
		PyErr_SetString(PyExc_IndexError, "map row index out of range");
		return NULL;
	}
	return map_entry(self, (unsigned int)i);
}

static PyObject *Map_get_entries(MapObject *self, void *closure)
{
	Py_ssize_t n = Map_len(self);
	PyObject *l;

	if (n < 0 && PyErr_Occurred())
		return NULL;
	l = PyList_New(n);
	for (Py_ssize_t i = 0; l && i < n; i++) {
		PyObject *e = map_entry(self, (unsigned int)i);
		if (!e) {
			Py_CLEAR(l);
			break;
		}
		PyList_SET_ITEM(l, i, e);
	}
	return l;
}

static PyObject *Map_get_type(MapObject *self, void *closure)
{
	if (map_check(self) < 0)
		return NULL;
	return PyUnicode_FromString(modalias_map_type_name(modalias_map_get_type(self->map)));
}

static PyObject *Map_get_name(MapObject *self, void *closure)
{
	const char *n;

	if (map_check(self) < 0)
		return NULL;
	n = modalias_map_get_name(self->map);
	if (!n)
		Py_RETURN_NONE;
	return PyUnicode_DecodeFSDefault(n);
}

static PyObject *Map_get_columns(MapObject *self, void *closure)
{
	const char *f;
	PyObject *l;
	int type;

	if (map_check(self) < 0)
		return NULL;
	type = modalias_map_get_type(self->map);
	l = PyList_New(0);
	for (unsigned int i = 0; l && (f = modalias_map_type_field_name(type, i)); i++) {
		PyObject *s = PyUnicode_FromString(f);
		if (!s || PyList_Append(l, s) < 0) {
			Py_XDECREF(s);
			Py_CLEAR(l);
		}
		Py_XDECREF(s);
	}
	return l;
}

static PyObject *Map_get_skipped(MapObject *self, void *closure)
{
	return PyLong_FromLong(self->skipped);
}

static PyObject *Map_get_closed(MapObject *self, void *closure)
{
	return PyBool_FromLong(self->map == NULL);
}

static PyObject *Map_get_word_bits(MapObject *self, void *closure)
{
	if (map_check(self) < 0)
		return NULL;
	return PyLong_FromLong(modalias_map_get_word_bits(self->map));
}

static int Map_set_word_bits(MapObject *self, PyObject *value, void *closure)
{
	long bits;
	int r;

	if (map_check(self) < 0)
		return -1;
	if (!value) {
		PyErr_SetString(PyExc_AttributeError, "word_bits cannot be deleted");
		return -1;
	}
	bits = PyLong_AsLong(value);
	if (bits == -1 && PyErr_Occurred())
		return -1;
	log_reset();
	r = modalias_map_set_word_bits(self->map, bits < 0 || bits > 1024 ? 0u : (unsigned int)bits);
	if (r < 0) {
		raise_errno(r, KIND_INPUT, NULL);
		return -1;
	}
	return 0;
}

static PyObject *aliases_list(char **v, int n)
{
	PyObject *l = PyList_New(0);

	for (int i = 0; l && i < n; i++) {
		PyObject *s = PyUnicode_DecodeUTF8(v[i], (Py_ssize_t)strlen(v[i]), "surrogateescape");
		if (!s || PyList_Append(l, s) < 0)
			Py_CLEAR(l);
		Py_XDECREF(s);
	}
	return l;
}

static void free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

static PyObject *Map_aliases(MapObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "index", "dialect_2_6", NULL };
	unsigned int index;
	int dialect = 0, n;
	char **v = NULL;
	PyObject *l;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "I|p:aliases", (char **)kwlist, &index, &dialect))
		return NULL;
	if (map_check(self) < 0)
		return NULL;
	log_reset();
	n = modalias_map_get_aliases(self->map, index, dialect ? MODALIAS_MAP_DIALECT_2_6 : 0, &v);
	if (n < 0) {
		if (n == -ERANGE) {
			PyErr_SetString(PyExc_IndexError, "map row index out of range");
			return NULL;
		}
		return raise_errno(n, KIND_INPUT, NULL);
	}
	l = aliases_list(v, n);
	free_strv(v);
	return l;
}

static PyObject *Map_to_aliases(MapObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "dialect_2_6", NULL };
	int dialect = 0, count;
	PyObject *out;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:to_aliases", (char **)kwlist, &dialect))
		return NULL;
	if (map_check(self) < 0)
		return NULL;
	count = modalias_map_get_count(self->map);
	out = PyList_New(0);
	for (int i = 0; out && i < count; i++) {
		char **v = NULL;
		int n;
		const char *module = modalias_map_get_module(self->map, (unsigned int)i);

		log_reset();
		n = modalias_map_get_aliases(self->map, (unsigned int)i, dialect ? MODALIAS_MAP_DIALECT_2_6 : 0, &v);
		if (n < 0) {
			Py_CLEAR(out);
			return raise_errno(n, KIND_INPUT, NULL);
		}
		for (int k = 0; k < n; k++) {
			PyObject *t = Py_BuildValue("(ss)", v[k], module ? module : "");
			if (!t || PyList_Append(out, t) < 0)
				Py_CLEAR(out);
			Py_XDECREF(t);
			if (!out)
				break;
		}
		free_strv(v);
	}
	return out;
}

static PyObject *Map_match(MapObject *self, PyObject *arg)
{
	PyObject *l;
	unsigned int start = 0, index = 0;
	int r;

	if (!PyObject_TypeCheck(arg, &DeviceType)) {
		PyErr_SetString(PyExc_TypeError, "match() takes a Device");
		return NULL;
	}
	if (map_check(self) < 0)
		return NULL;
	l = PyList_New(0);
	while (l) {
		PyObject *e;
		log_reset();
		r = modalias_map_match(self->map, ((DeviceObject *)arg)->dev, start, &index);
		if (r < 0) {
			Py_DECREF(l);
			return raise_errno(r, KIND_INPUT, NULL);
		}
		if (r == 0)
			break;
		e = map_entry(self, index);
		if (!e || PyList_Append(l, e) < 0)
			Py_CLEAR(l);
		Py_XDECREF(e);
		start = index + 1;
	}
	return l;
}

static PyObject *Map_close(MapObject *self, PyObject *unused)
{
	modalias_map_unref(self->map);
	self->map = NULL;
	Py_RETURN_NONE;
}

static PyObject *Map_enter(MapObject *self, PyObject *unused)
{
	if (map_check(self) < 0)
		return NULL;
	Py_INCREF(self);
	return (PyObject *)self;
}

static PyObject *Map_exit(MapObject *self, PyObject *args)
{
	return Map_close(self, NULL);
}

static PyObject *Table_load_map(TableObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "map", "dialect_2_6", NULL };
	PyObject *mapo;
	struct modalias_map *map;
	int dialect = 0, r, rc;
	struct add_args a = { 0 };

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!|p:load_map", (char **)kwlist, &MapType, &mapo, &dialect))
		return NULL;
	if (map_check((MapObject *)mapo) < 0)
		return NULL;
	/* a C reference of our own: another thread may close() the Map while
	 * the GIL is released */
	map = modalias_map_ref(((MapObject *)mapo)->map);
	a.map = map;
	a.flags = dialect ? MODALIAS_MAP_DIALECT_2_6 : 0;
	rc = table_change(self, change_load_map, &a, &r);
	modalias_map_unref(map);
	if (rc < 0)
		return NULL;
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	log_reset();
	return PyLong_FromLong(r);
}

static PyObject *Table_write_map(TableObject *self, PyObject *args)
{
	PyObject *typeo, *s;
	struct modalias_table *t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int type, r;

	if (!PyArg_ParseTuple(args, "O:write_map", &typeo))
		return NULL;
	if (map_type_arg(typeo, &type) < 0)
		return NULL;
	if (type < 0) {
		PyErr_SetString(InputError, "write_map() needs a map type");
		return NULL;
	}
	t = table_get(self);
	if (!t)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f) {
		table_put(t);
		return PyErr_NoMemory();
	}
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	pthread_rwlock_rdlock(&self->lock);
	r = modalias_table_write_map(t, type, f);
	pthread_rwlock_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	table_put(t);
	fclose(f);
	if (r < 0) {
		free(buf);
		if (r == -EOPNOTSUPP) {
			log_reset();
			PyErr_Format(InputError, "write_map(): maps of type '%s' cannot be written",
				     modalias_map_type_name(type));
			return NULL;
		}
		return raise_errno(r, KIND_IO, NULL);
	}
	log_reset();
	s = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)len, "surrogateescape");
	free(buf);
	return s;
}

static PyMethodDef Map_methods[] = {
	{ "from_file", (PyCFunction)(void (*)(void))Map_from_file, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_file(path, type=None) -> Map\n\nReads a legacy modules.*map file (or a hotplug user map).  "
	  "type: 'usb', 'pci',\n'ieee1394', 'ccw', 'isapnp', 'input', 'of', 'serio' (or MAP_*), None to take "
	  "it\nfrom the header or the file name.  Bad rows are skipped with a ParseWarning." },
	{ "from_string", (PyCFunction)(void (*)(void))Map_from_string, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_string(text, name=None, type=None) -> Map\n\nA map from its text." },
	{ "aliases", (PyCFunction)(void (*)(void))Map_aliases, METH_VARARGS | METH_KEYWORDS,
	  "aliases(index, dialect_2_6=False) -> list[str]\n\nThe modules.alias patterns of one row, as "
	  "the kernel's file2alias writes them." },
	{ "to_aliases", (PyCFunction)(void (*)(void))Map_to_aliases, METH_VARARGS | METH_KEYWORDS,
	  "to_aliases(dialect_2_6=False) -> list[tuple[str, str]]\n\n(pattern, module) for every row, "
	  "as modules.alias lines; dialect_2_6 writes\nthem as kernels before 3.x did." },
	{ "match", (PyCFunction)Map_match, METH_O,
	  "match(device) -> list[MapEntry]\n\nThe rows that match a Device, as the kernel matches its "
	  "device tables." },
	{ "close", (PyCFunction)Map_close, METH_NOARGS, "close()\n\nReleases the C map." },
	{ "__enter__", (PyCFunction)Map_enter, METH_NOARGS, "Returns the map." },
	{ "__exit__", (PyCFunction)Map_exit, METH_VARARGS, "Closes the map." },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Map_getset[] = {
	{ "type", (getter)Map_get_type, NULL, "The kind of map: 'usb', 'pci', ... (the file is modules.TYPEmap).", NULL },
	{ "name", (getter)Map_get_name, NULL, "The file (or buffer) name it was read from.", NULL },
	{ "columns", (getter)Map_get_columns, NULL, "The column names of its type.", NULL },
	{ "entries", (getter)Map_get_entries, NULL, "A new list of all its rows (MapEntry).", NULL },
	{ "skipped", (getter)Map_get_skipped, NULL, "The number of bad rows skipped.", NULL },
	{ "closed", (getter)Map_get_closed, NULL, "Whether close() was called.", NULL },
	{ "word_bits", (getter)Map_get_word_bits, (setter)Map_set_word_bits,
	  "The word size (32 or 64) of inputmap bitmaps; settable.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PySequenceMethods Map_as_sequence = {
	.sq_length = (lenfunc)Map_len,
	.sq_item = (ssizeargfunc)Map_item,
};

static PyTypeObject MapType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Map",
	.tp_basicsize = sizeof(MapObject),
	.tp_dealloc = (destructor)Map_dealloc,
	.tp_as_sequence = &Map_as_sequence,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "Map(path, type=None)\n\n"
		  "A legacy modules.*map file (module-init-tools' depmod until 2012, and hotplug\n"
		  "user maps).  A sequence of MapEntry rows; match() devices against it, turn it\n"
		  "into aliases with to_aliases(), or load it into a Table (Table.load_map()).\n"
		  "Map(path) is Map.from_file(path).  A context manager.",
	.tp_methods = Map_methods,
	.tp_getset = Map_getset,
	.tp_new = Map_new,
};

/* ---- Loader ---------------------------------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	struct modalias_loader *loader; /* NULL once closed */
	pthread_mutex_t lock;           /* libkmod contexts are not thread-safe */
} LoaderObject;

struct rec {
	char *module, *detail, *options;
	int state, err;
};

struct recs {
	struct rec *v;
	size_t n, cap;
	int oom;
};

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static void on_load(void *data, const char *module, const char *detail, const char *options,
		    enum modalias_load_state state, int err)
{
	struct recs *rs = data;
	struct rec *r;

	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 8;
		struct rec *v = realloc(rs->v, cap * sizeof(*v));
		if (!v) {
			rs->oom = 1;
			return;
		}
		rs->v = v;
		rs->cap = cap;
	}
	r = &rs->v[rs->n];
	r->module = dup_or_empty(module);
	r->detail = dup_or_empty(detail);
	r->options = dup_or_empty(options);
	r->state = (int)state;
	r->err = err;
	if (!r->module || !r->detail || !r->options) {
		free(r->module);
		free(r->detail);
		free(r->options);
		rs->oom = 1;
		return;
	}
	rs->n++;
}

static void recs_free(struct recs *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->v[i].module);
		free(rs->v[i].detail);
		free(rs->v[i].options);
	}
	free(rs->v);
}

/* The records as LoadRecords; a failure no record tells of raises. */
static PyObject *recs_to_list(struct recs *rs, int ret, enum err_kind kind)
{
	PyObject *l;
	bool failure_reported = false;

	if (rs->oom)
		return PyErr_NoMemory();
	for (size_t i = 0; i < rs->n; i++)
		failure_reported |= rs->v[i].state == MODALIAS_LOAD_FAILED || rs->v[i].state == MODALIAS_LOAD_NOT_FOUND;
	if (ret < 0 && !failure_reported)
		return raise_errno(ret, kind, NULL);
	log_reset();
	l = PyList_New((Py_ssize_t)rs->n);
	for (size_t i = 0; l && i < rs->n; i++) {
		struct rec *r = &rs->v[i];
		const char *state = modalias_load_state_name((enum modalias_load_state)r->state);
		PyObject *e = PyStructSequence_New(LoadRecordType);
		if (!e) {
			Py_CLEAR(l);
			break;
		}
		PyStructSequence_SET_ITEM(e, 0, PyUnicode_DecodeFSDefault(r->module));
		PyStructSequence_SET_ITEM(e, 1, PyUnicode_DecodeFSDefault(r->detail));
		PyStructSequence_SET_ITEM(e, 2, PyUnicode_DecodeFSDefault(r->options));
		PyStructSequence_SET_ITEM(e, 3, PyUnicode_FromString(state ? state : "unknown"));
		PyStructSequence_SET_ITEM(e, 4, PyLong_FromLong(r->err < 0 ? -r->err : r->err));
		PyList_SET_ITEM(l, (Py_ssize_t)i, e);
		for (int k = 0; k < 5; k++)
			if (!PyStructSequence_GET_ITEM(e, k)) {
				Py_CLEAR(l);
				break;
			}
	}
	return l;
}

static PyObject *Loader_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "directory", "config_paths", NULL };
	PyObject *dir = NULL, *paths = Py_None;
	struct path_list pl;
	struct modalias_ctx *ctx;
	struct modalias_loader *loader = NULL;
	LoaderObject *self;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O&O:Loader", (char **)kwlist, opt_path_conv, &dir, &paths))
		return NULL;
	if (path_list_init(&pl, paths) < 0) {
		Py_XDECREF(dir);
		return NULL;
	}
	ctx = new_ctx(NULL);
	if (!ctx) {
		path_list_clear(&pl);
		Py_XDECREF(dir);
		return NULL;
	}
	log_reset();
	{
		const char *d = bytes_or_null(dir);
		const char *const *v = pl.v;

		Py_BEGIN_ALLOW_THREADS
		r = modalias_loader_new(ctx, d, v, &loader);
		Py_END_ALLOW_THREADS
	}
	modalias_ctx_unref(ctx);
	path_list_clear(&pl);
	if (r < 0) {
		raise_errno(r, KIND_IO, dir ? PyBytes_AS_STRING(dir) : NULL);
		Py_XDECREF(dir);
		return NULL;
	}
	Py_XDECREF(dir);
	self = (LoaderObject *)type->tp_alloc(type, 0);
	if (!self) {
		modalias_loader_unref(loader);
		return NULL;
	}
	self->loader = loader;
	pthread_mutex_init(&self->lock, NULL);
	return (PyObject *)self;
}

static void Loader_dealloc(LoaderObject *self)
{
	modalias_loader_unref(self->loader);
	pthread_mutex_destroy(&self->lock);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static struct modalias_loader *loader_get(LoaderObject *self)
{
	if (!self->loader) {
		raise_closed("Loader");
		return NULL;
	}
	return modalias_loader_ref(self->loader);
}

static PyObject *Loader_load(LoaderObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "table", "alias", "dry_run", NULL };
	PyObject *tableo, *aliaso, *l;
	int dry_run = 1, r;
	const char *alias;
	char *copy;
	struct modalias_loader *loader;
	struct modalias_table *t;
	struct recs rs = { 0 };
	TableObject *to;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!U|p:load", (char **)kwlist, &TableType, &tableo, &aliaso,
					 &dry_run))
		return NULL;
	alias = alias_arg(aliaso);
	if (!alias || cstr_dup(alias, &copy) < 0)
		return NULL;
	loader = loader_get(self);
	if (!loader) {
		free(copy);
		return NULL;
	}
	/* our own reference: its lock is used with the GIL released */
	to = (TableObject *)tableo;
	Py_INCREF(to);
	t = table_get(to);
	if (!t) {
		Py_DECREF(to);
		modalias_loader_unref(loader);
		free(copy);
		return NULL;
	}
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	pthread_rwlock_rdlock(&to->lock);
	r = modalias_loader_load(loader, t, copy, dry_run ? MODALIAS_LOAD_DRY_RUN : 0, on_load, &rs);
	pthread_rwlock_unlock(&to->lock);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	table_put(t);
	Py_DECREF(to);
	modalias_loader_unref(loader);
	free(copy);
	l = recs_to_list(&rs, r, KIND_IO);
	recs_free(&rs);
	return l;
}

static PyObject *Loader_load_module(LoaderObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "module", "dry_run", NULL };
	const char *module;
	char *copy;
	int dry_run = 1, r;
	struct modalias_loader *loader;
	struct recs rs = { 0 };
	PyObject *l;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|p:load_module", (char **)kwlist, &module, &dry_run) ||
	    cstr_dup(module, &copy) < 0)
		return NULL;
	loader = loader_get(self);
	if (!loader) {
		free(copy);
		return NULL;
	}
	log_reset();
	/* the library refuses what is not a module name (InputError) before
	 * libkmod sees it */
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	r = modalias_loader_load_module(loader, copy, dry_run ? MODALIAS_LOAD_DRY_RUN : 0, on_load, &rs);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	modalias_loader_unref(loader);
	free(copy);
	l = recs_to_list(&rs, r, KIND_INPUT);
	recs_free(&rs);
	return l;
}

static PyObject *Loader_add_blacklist(LoaderObject *self, PyObject *args)
{
	const char *module;
	char *copy;
	struct modalias_loader *loader;
	int r;

	if (!PyArg_ParseTuple(args, "s:add_blacklist", &module) || cstr_dup(module, &copy) < 0)
		return NULL;
	loader = loader_get(self);
	if (!loader) {
		free(copy);
		return NULL;
	}
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	r = modalias_loader_add_blacklist(loader, copy);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	modalias_loader_unref(loader);
	free(copy);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	Py_RETURN_NONE;
}

static PyObject *Loader_revalidate(LoaderObject *self, PyObject *unused)
{
	struct modalias_loader *loader = loader_get(self);
	int r;

	if (!loader)
		return NULL;
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	r = modalias_loader_revalidate(loader);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	modalias_loader_unref(loader);
	if (r < 0)
		return raise_errno(r, KIND_IO, NULL);
	return PyBool_FromLong(r > 0);
}

static PyObject *Loader_close(LoaderObject *self, PyObject *unused)
{
	struct modalias_loader *l = self->loader;

	self->loader = NULL;
	modalias_loader_unref(l);
	Py_RETURN_NONE;
}

static PyObject *Loader_enter(LoaderObject *self, PyObject *unused)
{
	if (!self->loader)
		return raise_closed("Loader");
	Py_INCREF(self);
	return (PyObject *)self;
}

static PyObject *Loader_exit(LoaderObject *self, PyObject *args)
{
	return Loader_close(self, NULL);
}

static PyObject *Loader_get_closed(LoaderObject *self, void *closure)
{
	return PyBool_FromLong(self->loader == NULL);
}

static PyMethodDef Loader_methods[] = {
	{ "load", (PyCFunction)(void (*)(void))Loader_load, METH_VARARGS | METH_KEYWORDS,
	  "load(table, alias, dry_run=True) -> list[LoadRecord]\n\nLoads every module the table "
	  "resolves alias to, with dependencies and\nsoftdeps, as udev does (blacklists apply; builtin "
	  "and loaded modules are\nskipped).  By default a dry run: the records say what modprobe -n -v "
	  "says.\nA module that fails is a record with state 'failed' and its errno, one that\ndoes not "
	  "exist a record with state 'not found' (errno ENOENT, or EINVAL for\na name in the table that is "
	  "not a module name); other failures raise." },
	{ "load_module", (PyCFunction)(void (*)(void))Loader_load_module, METH_VARARGS | METH_KEYWORDS,
	  "load_module(module, dry_run=True) -> list[LoadRecord]\n\nLoads one module by name, with its "
	  "dependencies and softdeps.  A module that\ndoes not exist is a record with state 'not found' "
	  "(errno ENOENT), as modprobe\nsays \"not found\".  A name that is not a module name (longer than "
	  "255 bytes,\nwith a '/' or a control character, empty once '-' is '_' and a '.' ends it)\nraises "
	  "InputError (a ValueError) before libkmod sees it." },
	{ "add_blacklist", (PyCFunction)Loader_add_blacklist, METH_VARARGS,
	  "add_blacklist(module)\n\nA module never to load, on top of modprobe.d's blacklist.  InputError "
	  "for a\nname that is not a module name." },
	{ "revalidate", (PyCFunction)Loader_revalidate, METH_NOARGS,
	  "revalidate() -> bool\n\nReloads libkmod's indexes and configuration when they changed on disk; "
	  "True\nwhen they were reloaded." },
	{ "close", (PyCFunction)Loader_close, METH_NOARGS, "close()\n\nReleases the loader and its libkmod context." },
	{ "__enter__", (PyCFunction)Loader_enter, METH_NOARGS, "Returns the loader." },
	{ "__exit__", (PyCFunction)Loader_exit, METH_VARARGS, "Closes the loader." },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Loader_getset[] = {
	{ "closed", (getter)Loader_get_closed, NULL, "Whether close() was called.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject LoaderType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Loader",
	.tp_basicsize = sizeof(LoaderObject),
	.tp_dealloc = (destructor)Loader_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "Loader(directory=None, config_paths=None)\n\n"
		  "Loads modules through libkmod (loaded on first use; UnsupportedError without\n"
		  "it): directory is the module directory (None: /lib/modules/$(uname -r)),\n"
		  "config_paths the modprobe.d files or directories (None: the system's, []:\n"
		  "none).  Calls are serialised per loader.  A context manager.",
	.tp_methods = Loader_methods,
	.tp_getset = Loader_getset,
	.tp_new = Loader_new,
};

/* ---- the module ------------------------------------------------------------------------------ */

static PyObject *mod_map_types(PyObject *self, PyObject *unused)
{
	PyObject *l = PyList_New(0);
	const char *n;

	for (int i = 0; l && (n = modalias_map_type_name(i)); i++) {
		PyObject *s = PyUnicode_FromString(n);
		if (!s || PyList_Append(l, s) < 0)
			Py_CLEAR(l);
		Py_XDECREF(s);
	}
	return l;
}

static PyMethodDef module_methods[] = {
	{ "build", (PyCFunction)(void (*)(void))mod_build, METH_VARARGS | METH_KEYWORDS,
	  "build(bus, /, **fields) -> str\n\nThe kernel's modalias for these IDs: build('usb', "
	  "idVendor='046d', idProduct=0xc52b).\nValues are hex text, int, or lists for list fields.  "
	  "InputError (a ValueError)\nnames a bad field or value." },
	{ "parse", mod_parse, METH_VARARGS,
	  "parse(modalias) -> Device\n\nThe bus and named fields of a modalias string (Device.parse())." },
	{ "from_env", (PyCFunction)(void (*)(void))mod_from_env, METH_VARARGS | METH_KEYWORDS,
	  "from_env(env, subsystem=None, sysfs_root=None) -> Device\n\nDevice.from_env(): the device of a "
	  "kernel event's variables." },
	{ "from_sysfs", (PyCFunction)(void (*)(void))mod_from_sysfs, METH_VARARGS | METH_KEYWORDS,
	  "from_sysfs(devpath, sysfs_root=None) -> Device\n\nDevice.from_sysfs(): a device's modalias from "
	  "sysfs." },
	{ "walk_sysfs", (PyCFunction)(void (*)(void))mod_walk_sysfs, METH_VARARGS | METH_KEYWORDS,
	  "walk_sysfs(sysfs_root=None) -> list[SysfsEntry]\n\nEvery device under SYSFS_ROOT/devices that "
	  "has a modalias (and those whose\nmodalias could not be read, with their errno), parents first." },
	{ "buses", mod_buses, METH_NOARGS, "buses() -> list[str]\n\nThe buses the library knows." },
	{ "bus_fields", mod_bus_fields, METH_VARARGS,
	  "bus_fields(bus) -> list[str]\n\nThe field names of a bus, in modalias order." },
	{ "field_help", mod_field_help, METH_VARARGS,
	  "field_help(bus, field) -> str\n\nA one-line description of a field and its values." },
	{ "map_types", mod_map_types, METH_NOARGS,
	  "map_types() -> list[str]\n\nThe kinds of legacy map file, indexed by the MAP_* numbers." },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef moduledef = {
	PyModuleDef_HEAD_INIT,
	.m_name = "modalias",
	.m_doc = "libmodalias from Python: which kernel module drives this device?\n\n"
		 "Build a device's modalias from IDs (build(), Device), an event environment\n"
		 "(from_env()) or sysfs (from_sysfs(), walk_sysfs()); take one apart (parse());\n"
		 "resolve it to modules as kmod does (Table); read legacy modules.*map files\n"
		 "(Map); load modules through libkmod (Loader, dry run by default).\n\n"
		 "Failures raise Error (an OSError with errno and the library's message) or one\n"
		 "of its subclasses: InputError (also a ValueError), NotFoundError (also a\n"
		 "FileNotFoundError), AccessError (also a PermissionError), UnsupportedError.",
	.m_size = -1,
	.m_methods = module_methods,
};

static PyObject *new_exception(PyObject *m, const char *name, const char *doc, PyObject *bases)
{
	char full[64];
	PyObject *e;

	snprintf(full, sizeof(full), "modalias.%s", name);
	e = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
	Py_XDECREF(bases);
	if (!e)
		return NULL;
	Py_INCREF(e);
	if (PyModule_AddObject(m, name, e) < 0) {
		Py_DECREF(e);
		Py_DECREF(e);
		return NULL;
	}
	return e;
}

static int add_type(PyObject *m, const char *name, PyTypeObject *t)
{
	Py_INCREF(t);
	if (PyModule_AddObject(m, name, (PyObject *)t) < 0) {
		Py_DECREF(t);
		return -1;
	}
	return 0;
}

PyMODINIT_FUNC PyInit_modalias(void);
PyMODINIT_FUNC PyInit_modalias(void)
{
	PyObject *m;

	FieldsType.tp_base = &PyDict_Type;
	if (PyType_Ready(&DeviceType) < 0 || PyType_Ready(&TableType) < 0 || PyType_Ready(&MapType) < 0 ||
	    PyType_Ready(&LoaderType) < 0 || PyType_Ready(&FieldsType) < 0)
		return NULL;
	m = PyModule_Create(&moduledef);
	if (!m)
		return NULL;
	if (!(ModuleType = PyStructSequence_NewType(&module_desc)) ||
	    !(MapEntryType = PyStructSequence_NewType(&map_entry_desc)) ||
	    !(LoadRecordType = PyStructSequence_NewType(&load_record_desc)) ||
	    !(SysfsEntryType = PyStructSequence_NewType(&sysfs_entry_desc)))
		goto fail;
	if (add_type(m, "Device", &DeviceType) < 0 || add_type(m, "Table", &TableType) < 0 ||
	    add_type(m, "Map", &MapType) < 0 || add_type(m, "Loader", &LoaderType) < 0 ||
	    add_type(m, "Module", ModuleType) < 0 || add_type(m, "MapEntry", MapEntryType) < 0 ||
	    add_type(m, "LoadRecord", LoadRecordType) < 0 || add_type(m, "SysfsEntry", SysfsEntryType) < 0)
		goto fail;
	Error = new_exception(m, "Error",
			      "A failure of libmodalias: an OSError whose errno is the C library's and whose\n"
			      "strerror is the message it logged.", Py_BuildValue("(O)", PyExc_OSError));
	if (!Error)
		goto fail;
	InputError = new_exception(m, "InputError",
				   "Bad input: a malformed modalias, an unknown bus or field, a bad value or line.",
				   Py_BuildValue("(OO)", Error, PyExc_ValueError));
	NotFoundError = new_exception(m, "NotFoundError", "A file, directory or device that does not exist.",
				      Py_BuildValue("(OO)", Error, PyExc_FileNotFoundError));
	AccessError = new_exception(m, "AccessError", "Permission denied.",
				    Py_BuildValue("(OO)", Error, PyExc_PermissionError));
	UnsupportedError = new_exception(m, "UnsupportedError", "Not available here (libkmod could not be loaded).",
					 Py_BuildValue("(O)", Error));
	ParseWarning = new_exception(m, "ParseWarning", "Malformed lines or rows were skipped while reading a file.",
				     Py_BuildValue("(O)", PyExc_UserWarning));
	if (!InputError || !NotFoundError || !AccessError || !UnsupportedError || !ParseWarning)
		goto fail;
	if (PyModule_AddStringConstant(m, "__version__", MODALIAS_VERSION) < 0 ||
	    PyModule_AddStringConstant(m, "BUNDLED_TABLE", BUNDLED_MODDIR) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_USB", MODALIAS_MAP_USB) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_PCI", MODALIAS_MAP_PCI) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_IEEE1394", MODALIAS_MAP_IEEE1394) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_CCW", MODALIAS_MAP_CCW) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_ISAPNP", MODALIAS_MAP_ISAPNP) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_INPUT", MODALIAS_MAP_INPUT) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_OF", MODALIAS_MAP_OF) < 0 ||
	    PyModule_AddIntConstant(m, "MAP_SERIO", MODALIAS_MAP_SERIO) < 0)
		goto fail;
	return m;
fail:
	Py_DECREF(m);
	return NULL;
}
