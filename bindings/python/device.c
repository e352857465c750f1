/*
 * device.c: the Device type (a device as its modalias describes it) and
 * Fields, the dict its .fields returns; Device.parse(), from_env() and
 * from_sysfs(), whose module-level twins module.c exposes.
 *
 * It may not keep a list of its own of which fields are lists (the
 * library answers, modalias_bus_field_is_list()).  It keeps the GIL: a
 * device belongs to its object alone, and each call on it is short
 * (from_sysfs() reads a device's few sysfs attributes).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PyObject *device_wrap(PyTypeObject *type, struct modalias_dev *dev)
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
		unsigned long long u;
		char buf[32];
		if (uint_field(value, &u, buf) < 0)
			return -1;
		r = modalias_dev_set_uint(dev, field, u);
		if (r == -EINVAL) {
			/* not a numeric field: its text */
			log_reset();
			r = modalias_dev_set(dev, field, buf);
		}
	} else if (PyUnicode_Check(value)) {
		const char *s = str_no_nul(value, "embedded null character");
		if (!s)
			return -1;
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
				unsigned long long u;
				char buf[32];
				if (uint_field(item, &u, buf) < 0) {
					Py_DECREF(seq);
					return -1;
				}
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

struct modalias_dev *device_new_kwargs(const char *bus, PyObject *kwargs)
{
	struct modalias_dev *dev = dev_new_bus(bus);

	if (dev && device_set_kwargs(dev, kwargs) < 0) {
		modalias_dev_unref(dev);
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
	dev = device_new_kwargs(bus, kwargs);
	return dev ? device_wrap(type, dev) : NULL;
}

static void Device_dealloc(DeviceObject *self)
{
	modalias_dev_unref(self->dev);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *device_format(struct modalias_dev *dev)
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

PyTypeObject FieldsType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Fields",
	.tp_base = &PyDict_Type, /* an address constant on ELF platforms */
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

/* The names of the process (the system's pci.ids and usb.ids), made on
 * the first name asked for, under the GIL; NULL when it cannot be made
 * (no names then, as without the databases) */
static struct modalias_names *process_names(void)
{
	static struct modalias_names *names;
	static bool tried;

	if (!tried) {
		struct modalias_ctx *ctx = new_ctx(NULL);

		tried = true;
		if (!ctx || modalias_names_new(ctx, NULL, &names) < 0)
			names = NULL;
		modalias_ctx_unref(ctx);
		PyErr_Clear();
	}
	return names;
}

/* vendor_name, device_name, class_name: WHICH is 0, 1 or 2 */
static PyObject *Device_get_name(DeviceObject *self, void *which)
{
	const char *name[3] = { NULL, NULL, NULL };
	struct modalias_names *names = process_names();

	if (names)
		modalias_names_lookup(names, self->dev, &name[0], &name[1], &name[2]);
	if (!name[(uintptr_t)which])
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(name[(uintptr_t)which], (Py_ssize_t)strlen(name[(uintptr_t)which]), "replace");
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
		unsigned long long u;
		char buf[32];
		if (uint_field(value, &u, buf) < 0)
			return NULL;
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

/* A method of one field argument (format "s:NAME"): what fn answers for
 * it (>= 0), or -1 with an exception. */
static int device_field_call(DeviceObject *self, PyObject *args, const char *format,
			     int (*fn)(struct modalias_dev *dev, const char *field))
{
	const char *field;
	int r;

	if (!PyArg_ParseTuple(args, format, &field))
		return -1;
	log_reset();
	r = fn(self->dev, field);
	if (r < 0)
		raise_errno(r, KIND_INPUT, NULL);
	return r < 0 ? -1 : r;
}

static int dev_count(struct modalias_dev *dev, const char *field)
{
	return modalias_dev_get_count(dev, field);
}

static PyObject *Device_unset(DeviceObject *self, PyObject *args)
{
	if (device_field_call(self, args, "s:unset", modalias_dev_unset) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *Device_count(DeviceObject *self, PyObject *args)
{
	int r = device_field_call(self, args, "s:count", dev_count);

	return r < 0 ? NULL : PyLong_FromLong(r);
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

/* parse / from_env / from_sysfs, shared by the classmethods and the module's functions */

PyObject *device_parse(PyTypeObject *type, PyObject *args)
{
	const char *s;
	PyObject *str;
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	int r;

	if (!PyArg_ParseTuple(args, "U:parse", &str))
		return NULL;
	s = str_no_nul(str, "embedded null character");
	if (!s)
		return NULL;
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

PyObject *device_from_env(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "env", "subsystem", "sysfs_root", "word_bits", NULL };
	PyObject *env, *items = NULL, *root = NULL;
	const char *subsystem = NULL;
	char **envp = NULL;
	Py_ssize_t n = 0;
	struct modalias_ctx *ctx = NULL;
	struct modalias_dev *dev = NULL;
	PyObject *ret = NULL;
	unsigned int word_bits = 0;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|zO&$I:from_env", (char **)kwlist, &env, &subsystem,
					 opt_path_conv, &root, &word_bits))
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
	r = modalias_ctx_set_word_bits(ctx, word_bits);
	if (r < 0) {
		PyErr_Format(InputError, "word_bits is 32 or 64 (or 0: the bitmaps tell, else this machine's), not %u",
			     word_bits);
		goto out;
	}
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

PyObject *device_from_sysfs(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static const char *const kwlist[] = { "devpath", "sysfs_root", NULL };
	PyObject *path, *ret;
	struct modalias_ctx *ctx = sysfs_path_args(args, kwargs, "O&|O&:from_sysfs", kwlist, &path);
	struct modalias_dev *dev = NULL;
	int r;

	if (!ctx)
		return NULL;
	r = modalias_dev_new_from_sysfs(ctx, PyBytes_AS_STRING(path), &dev);
	modalias_ctx_unref(ctx);
	ret = r < 0 ? raise_errno(r, KIND_IO, PyBytes_AS_STRING(path)) : device_wrap(type, dev);
	Py_DECREF(path);
	return ret;
}

static PyObject *Device_parse(PyObject *cls, PyObject *args)
{
	return device_parse((PyTypeObject *)cls, args);
}

static PyObject *Device_from_env(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	return device_from_env((PyTypeObject *)cls, args, kwargs);
}

static PyObject *Device_from_sysfs(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	return device_from_sysfs((PyTypeObject *)cls, args, kwargs);
}

static PyMethodDef Device_methods[] = {
	{ "parse", Device_parse, METH_VARARGS | METH_CLASS,
	  "parse(modalias) -> Device\n\nTakes a modalias string apart, strictly: str() of the result "
	  "gives it back exactly.\nRaises InputError (a ValueError) naming the offending field." },
	{ "from_env", (PyCFunction)(void (*)(void))Device_from_env, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_env(env, subsystem=None, sysfs_root=None, *, word_bits=0) -> Device\n\nThe device of a kernel "
	  "event from its variables (a mapping such as os.environ):\nMODALIAS when present, else the legacy hotplug "
	  "variables (PRODUCT/TYPE/INTERFACE,\nPCI_ID/PCI_SUBSYS_ID/PCI_CLASS, ...).  subsystem: argv[1] of "
	  "/sbin/hotplug, else SUBSYSTEM;\nsysfs_root: where $DEVPATH is looked up (default /sys); word_bits: 32 "
	  "or 64, the\nword size of the kernel that sent EV=, KEY=, ... (0: a word of more than 8 digits\nsays 64, "
	  "else this machine's)." },
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
	{ "vendor_name", (getter)Device_get_name, NULL,
	  "The vendor's name in the system's pci.ids or usb.ids ('Intel Corporation'), or None\n"
	  "(another bus, an id they do not list, no database).  The databases are read on the\n"
	  "first name asked for.", (void *)0 },
	{ "device_name", (getter)Device_get_name, NULL,
	  "The device's name under its vendor in pci.ids or usb.ids ('QEMU Tablet'), or None.", (void *)1 },
	{ "class_name", (getter)Device_get_name, NULL,
	  "The class's name: pci the subclass's ('SATA controller'), else the class's; usb the\n"
	  "interface class's ('Human Interface Device'), the device class's when that is 00; or None.",
	  (void *)2 },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMappingMethods Device_as_mapping = {
	.mp_subscript = (binaryfunc)Device_subscript,
	.mp_ass_subscript = (objobjargproc)Device_ass_subscript,
};

static PySequenceMethods Device_as_sequence = {
	.sq_contains = (objobjproc)Device_contains,
};

PyTypeObject DeviceType = {
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
		  "(Device.from_sysfs).  Built from IDs, the fields today's kernels always write\n"
		  "(USB's bInterfaceNumber, HID's group) are 0 unless given; None leaves one out.",
	.tp_methods = Device_methods,
	.tp_getset = Device_getset,
	.tp_new = Device_new,
};
