/*
 * snapshot.c: the Snapshot type, what a machine's sysfs says of its
 * devices, kept (the library's modalias_snapshot_*: taken from sysfs, read
 * from and written as its JSON file, walked and asked as sysfs is); and
 * the module's functions that ask a live sysfs the same questions,
 * sysfs_driver() and sysfs_module_loaded(), and sysfs_devpath(), the
 * device a path below its root leads to.
 *
 * A snapshot does not change once made: its calls take no lock.  Taking
 * one (from_sysfs(), from_file()) and writing it (format()) run with the
 * GIL released, on bytes this call owns and a C reference of its own
 * (another thread may close() the Snapshot meanwhile); the other calls
 * keep the GIL.  It may not read sysfs or the file itself, nor write JSON
 * (the library does), nor build SysfsEntry records but through walk.c's
 * sysfs_entry_append(): Snapshot.walk() and walk_sysfs() give the same.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	HandleObject h; /* h.ptr: struct modalias_snapshot * */
} SnapshotObject;

static void snapshot_unref(void *ptr)
{
	modalias_snapshot_unref(ptr);
}

static const struct handle_kind snapshot_kind = { "Snapshot", snapshot_unref };

/* A C reference to the open snapshot, or NULL with ValueError. */
static struct modalias_snapshot *snapshot_get(SnapshotObject *self)
{
	if (handle_check(&self->h) < 0)
		return NULL;
	return modalias_snapshot_ref(self->h.ptr);
}

/* A Snapshot of type owning snap (unref'd on failure). */
static PyObject *snapshot_wrap(PyTypeObject *type, struct modalias_snapshot *snap)
{
	SnapshotObject *self = (SnapshotObject *)type->tp_alloc(type, 0);

	if (!self) {
		modalias_snapshot_unref(snap);
		return NULL;
	}
	self->h.ptr = snap;
	self->h.kind = &snapshot_kind;
	return (PyObject *)self;
}

static void Snapshot_dealloc(SnapshotObject *self)
{
	handle_release(&self->h);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* (driver, driver_module, driver_override): str or None each */
static PyObject *driver_tuple(const char *driver, const char *module, const char *override)
{
	const char *v[3] = { driver, module, override };
	PyObject *t = PyTuple_New(3);

	for (Py_ssize_t i = 0; t && i < 3; i++) {
		PyObject *s = str_or_none(v[i]);
		if (!s) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, i, s);
	}
	return t;
}

/* ---- construction --------------------------------------------------------------- */

static PyObject *Snapshot_from_sysfs(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "sysfs_root", NULL };
	PyObject *root = NULL;
	struct modalias_ctx *ctx;
	struct modalias_snapshot *snap = NULL;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O&:from_sysfs", (char **)kwlist, opt_path_conv, &root))
		return NULL;
	ctx = new_ctx(bytes_or_null(root));
	if (!ctx) {
		Py_XDECREF(root);
		return NULL;
	}
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	r = modalias_snapshot_new_from_sysfs(ctx, &snap);
	Py_END_ALLOW_THREADS
	modalias_ctx_unref(ctx);
	if (r < 0) {
		raise_errno(r, KIND_IO, root ? PyBytes_AS_STRING(root) : "/sys");
		Py_XDECREF(root);
		return NULL;
	}
	Py_XDECREF(root);
	log_reset(); /* what the walk logged of devices it recorded with their errno */
	return snapshot_wrap((PyTypeObject *)cls, snap);
}

static PyObject *Snapshot_from_file(PyObject *cls, PyObject *args)
{
	PyObject *path = NULL;
	struct modalias_ctx *ctx;
	struct modalias_snapshot *snap = NULL;
	const char *p;
	int r;

	if (!PyArg_ParseTuple(args, "O&:from_file", PyUnicode_FSConverter, &path))
		return NULL;
	ctx = new_ctx(NULL);
	if (!ctx) {
		Py_DECREF(path);
		return NULL;
	}
	p = PyBytes_AS_STRING(path);
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	r = modalias_snapshot_new_from_file(ctx, p, &snap);
	Py_END_ALLOW_THREADS
	modalias_ctx_unref(ctx);
	if (r < 0) {
		raise_errno(r, KIND_DOC, p);
		Py_DECREF(path);
		return NULL;
	}
	Py_DECREF(path);
	log_reset();
	return snapshot_wrap((PyTypeObject *)cls, snap);
}

/* ---- what it holds ------------------------------------------------------------------ */

static PyObject *Snapshot_format(SnapshotObject *self, PyObject *unused)
{
	struct modalias_snapshot *snap = snapshot_get(self);
	char *buf = NULL;
	PyObject *s;
	int r;

	if (!snap)
		return NULL;
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	r = modalias_snapshot_format(snap, &buf);
	Py_END_ALLOW_THREADS
	modalias_snapshot_unref(snap);
	if (r < 0)
		return raise_errno(r, KIND_IO, NULL);
	log_reset();
	/* bytes that are not UTF-8 are written "\u00XX": the document is
	 * UTF-8; surrogateescape as Table.write_map() decodes, all the same */
	s = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "surrogateescape");
	free(buf);
	return s;
}

static PyObject *Snapshot_walk(SnapshotObject *self, PyObject *unused)
{
	struct modalias_snapshot *snap = snapshot_get(self);
	struct sysfs_walk w = { NULL, 0 };
	int r;

	if (!snap)
		return NULL;
	w.list = PyList_New(0);
	if (!w.list)
		goto out;
	log_reset();
	r = modalias_snapshot_foreach(snap, sysfs_entry_append, &w);
	if (w.failed) {
		Py_CLEAR(w.list);
	} else if (r < 0) {
		raise_errno(r, KIND_IO, NULL);
		Py_CLEAR(w.list);
	} else {
		log_reset();
	}
out:
	modalias_snapshot_unref(snap);
	return w.list;
}

/* The devpath argument of a method (format "O:NAME"): *key is the
 * argument (borrowed: the KeyError's key), *path its bytes (a new
 * reference).  -1 with an exception. */
static int devpath_arg(PyObject *args, const char *format, PyObject **key, PyObject **path)
{
	*path = NULL;
	if (!PyArg_ParseTuple(args, format, key))
		return -1;
	return PyUnicode_FSConverter(*key, path) ? 0 : -1;
}

static PyObject *Snapshot_device(SnapshotObject *self, PyObject *args)
{
	struct modalias_snapshot *snap;
	struct modalias_dev *dev = NULL;
	PyObject *key, *path, *ret = NULL;
	int r;

	if (devpath_arg(args, "O:device", &key, &path) < 0)
		return NULL;
	snap = snapshot_get(self);
	if (!snap)
		goto out;
	log_reset();
	/* -ENOENT of get_dev() is also an error a device may be recorded
	 * with: get_driver() says alone whether the snapshot has it */
	if (modalias_snapshot_get_driver(snap, PyBytes_AS_STRING(path), NULL, NULL, NULL) == -ENOENT) {
		PyErr_SetObject(PyExc_KeyError, key);
	} else {
		r = modalias_snapshot_get_dev(snap, PyBytes_AS_STRING(path), &dev);
		if (r < 0)
			raise_errno(r, KIND_IO, PyBytes_AS_STRING(path));
		else
			ret = device_wrap(&DeviceType, dev);
	}
	modalias_snapshot_unref(snap);
out:
	Py_XDECREF(path);
	return ret;
}

static PyObject *Snapshot_driver(SnapshotObject *self, PyObject *args)
{
	struct modalias_snapshot *snap;
	const char *d = NULL, *m = NULL, *o = NULL;
	PyObject *key, *path, *ret = NULL;
	int r;

	if (devpath_arg(args, "O:driver", &key, &path) < 0)
		return NULL;
	snap = snapshot_get(self);
	if (!snap)
		goto out;
	log_reset();
	r = modalias_snapshot_get_driver(snap, PyBytes_AS_STRING(path), &d, &m, &o);
	if (r == -ENOENT)
		PyErr_SetObject(PyExc_KeyError, key);
	else if (r < 0)
		raise_errno(r, KIND_INPUT, NULL);
	else
		ret = driver_tuple(d, m, o); /* the strings are snap's: before the unref */
	modalias_snapshot_unref(snap);
out:
	Py_XDECREF(path);
	return ret;
}

/* ASK's answer of the module named in ARGS (FORMAT: "s:METHOD"): a bool,
 * or None where the snapshot does not record it (-ENODATA) */
static PyObject *snapshot_ask_module(SnapshotObject *self, PyObject *args, const char *format,
				     int (*ask)(const struct modalias_snapshot *, const char *))
{
	struct modalias_snapshot *snap;
	const char *name;
	int r;

	if (!PyArg_ParseTuple(args, format, &name))
		return NULL;
	snap = snapshot_get(self);
	if (!snap)
		return NULL;
	log_reset();
	r = ask(snap, name);
	modalias_snapshot_unref(snap);
	if (r == -ENODATA)
		Py_RETURN_NONE;
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	return PyBool_FromLong(r);
}

static PyObject *Snapshot_is_module_loaded(SnapshotObject *self, PyObject *args)
{
	return snapshot_ask_module(self, args, "s:is_module_loaded", modalias_snapshot_is_module_loaded);
}

static PyObject *Snapshot_is_module_builtin(SnapshotObject *self, PyObject *args)
{
	return snapshot_ask_module(self, args, "s:is_module_builtin", modalias_snapshot_is_module_builtin);
}

static Py_ssize_t Snapshot_len(SnapshotObject *self)
{
	if (handle_check(&self->h) < 0)
		return -1;
	return (Py_ssize_t)modalias_snapshot_get_n_devices(self->h.ptr);
}

static PyObject *Snapshot_get_kernel(SnapshotObject *self, void *closure)
{
	if (handle_check(&self->h) < 0)
		return NULL;
	return str_or_none(modalias_snapshot_get_kernel(self->h.ptr));
}

static PyObject *Snapshot_get_arch(SnapshotObject *self, void *closure)
{
	if (handle_check(&self->h) < 0)
		return NULL;
	return str_or_none(modalias_snapshot_get_arch(self->h.ptr));
}

static PyMethodDef Snapshot_methods[] = {
	{ "from_sysfs", (PyCFunction)(void (*)(void))Snapshot_from_sysfs, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_sysfs(sysfs_root=None) -> Snapshot\n\nTakes a snapshot of a sysfs tree (None: /sys): every "
	  "device walk_sysfs() reports,\nwith its subsystem, driver, driver module and driver_override, and "
	  "the modules\nwhose initstate is 'live'.  NotFoundError when SYSFS_ROOT/devices is missing." },
	{ "from_file", Snapshot_from_file, METH_VARARGS | METH_CLASS,
	  "from_file(path) -> Snapshot\n\nReads a snapshot file (what format() writes; 64 MiB at most).  "
	  "InputError (a\nValueError) for a file that is not a snapshot, with the library's message naming\n"
	  "the line and column: errno EBADMSG, or EPROTONOSUPPORT for a version other than\n1; "
	  "NotFoundError, AccessError or Error for a file that cannot be read." },
	{ "format", (PyCFunction)Snapshot_format, METH_NOARGS,
	  "format() -> str\n\nThe snapshot's JSON document (version 1), one device per line, as "
	  "from_file() reads\nit back: write it to a file to answer offline what this machine's sysfs "
	  "says." },
	{ "walk", (PyCFunction)Snapshot_walk, METH_NOARGS,
	  "walk() -> list[SysfsEntry]\n\nIts devices as walk_sysfs() reports them from the tree it was "
	  "taken of: parents\nfirst, each with its Device, or None and the errno its modalias could not be "
	  "read\nwith." },
	{ "device", (PyCFunction)Snapshot_device, METH_VARARGS,
	  "device(devpath) -> Device\n\nThe device at devpath ('/devices/...'), as from_sysfs() read it.  "
	  "KeyError when\nthe snapshot has no such device; Error (an OSError) with the errno its modalias\n"
	  "could not be read with, when it was recorded so." },
	{ "driver", (PyCFunction)Snapshot_driver, METH_VARARGS,
	  "driver(devpath) -> tuple[str | None, str | None, str | None]\n\n(driver, driver_module, "
	  "driver_override) of a device, as sysfs_driver() says\nthem; None where unset.  KeyError when the "
	  "snapshot has no such device." },
	{ "is_module_loaded", (PyCFunction)Snapshot_is_module_loaded, METH_VARARGS,
	  "is_module_loaded(name) -> bool | None\n\nWhether the module (named as the kernel writes it, '_' not "
	  "'-') was loaded when\nthe snapshot was taken, or None when the snapshot does not record it (taken\n"
	  "from a captured tree without /sys/module)." },
	{ "is_module_builtin", (PyCFunction)Snapshot_is_module_builtin, METH_VARARGS,
	  "is_module_builtin(name) -> bool | None\n\nWhether the module was built into the kernel of the machine "
	  "(a /sys/module\nentry without an initstate, or a driver of its name without a module link),\nor None "
	  "when the snapshot does not record it (one written before\nlibmodalias 4, or taken from a captured tree "
	  "without /sys/module and /sys/bus)." },
	HANDLE_METHODS("snapshot", "close()\n\nReleases the C snapshot; later calls raise ValueError.  "
				   "Closing twice is harmless."),
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Snapshot_getset[] = {
	{ "kernel", (getter)Snapshot_get_kernel, NULL,
	  "The kernel release of the machine it was taken on (uname -r), or None.", NULL },
	{ "arch", (getter)Snapshot_get_arch, NULL, "That machine's architecture (uname -m), or None.", NULL },
	HANDLE_CLOSED_GETSET,
	{ NULL, NULL, NULL, NULL, NULL },
};

static PySequenceMethods Snapshot_as_sequence = {
	.sq_length = (lenfunc)Snapshot_len,
};

PyTypeObject SnapshotType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Snapshot",
	.tp_basicsize = sizeof(SnapshotObject),
	.tp_dealloc = (destructor)Snapshot_dealloc,
	.tp_as_sequence = &Snapshot_as_sequence,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "A snapshot of what a machine's sysfs says of its devices: for each device with a\n"
		  "modalias, its devpath, modalias (or the errno reading it gave), driver, driver\n"
		  "module and driver_override; and the modules loaded.  Take one with\n"
		  "Snapshot.from_sysfs(), write it with format(), read it elsewhere with\n"
		  "Snapshot.from_file(); it answers as sysfs would (walk(), device(), driver(),\n"
		  "is_module_loaded()).  len() is its number of devices.  A context manager;\n"
		  "close() releases it.",
	.tp_methods = Snapshot_methods,
	.tp_getset = Snapshot_getset,
};

/* ---- the module's functions: a live sysfs ------------------------------------------ */

PyObject *mod_sysfs_driver(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *const kwlist[] = { "devpath", "sysfs_root", NULL };
	PyObject *path, *ret;
	struct modalias_ctx *ctx = sysfs_path_args(args, kwargs, "O&|O&:sysfs_driver", kwlist, &path);
	char *d = NULL, *m = NULL, *o = NULL;
	int r;

	if (!ctx)
		return NULL;
	r = modalias_sysfs_get_driver(ctx, PyBytes_AS_STRING(path), &d, &m, &o);
	modalias_ctx_unref(ctx);
	ret = r < 0 ? raise_errno(r, KIND_INPUT, PyBytes_AS_STRING(path)) : driver_tuple(d, m, o);
	free(d);
	free(m);
	free(o);
	Py_DECREF(path);
	return ret;
}

PyObject *mod_sysfs_module_loaded(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "name", "sysfs_root", NULL };
	PyObject *root = NULL;
	struct modalias_ctx *ctx;
	const char *name;
	int r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|O&:sysfs_module_loaded", (char **)kwlist, &name,
					 opt_path_conv, &root))
		return NULL;
	ctx = new_ctx(bytes_or_null(root));
	Py_XDECREF(root);
	if (!ctx)
		return NULL;
	log_reset();
	r = modalias_sysfs_is_module_loaded(ctx, name);
	modalias_ctx_unref(ctx);
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	return PyBool_FromLong(r);
}

PyObject *mod_sysfs_devpath(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *const kwlist[] = { "path", "sysfs_root", NULL };
	PyObject *path, *ret;
	struct modalias_ctx *ctx = sysfs_path_args(args, kwargs, "O&|O&:sysfs_devpath", kwlist, &path);
	char *devpath = NULL;
	int r;

	if (!ctx)
		return NULL;
	r = modalias_sysfs_devpath(ctx, PyBytes_AS_STRING(path), &devpath);
	modalias_ctx_unref(ctx);
	ret = r < 0 ? raise_errno(r, KIND_IO, PyBytes_AS_STRING(path)) : PyUnicode_DecodeFSDefault(devpath);
	free(devpath);
	Py_DECREF(path);
	return ret;
}
