/*
 * walk.c: walk_sysfs(), every device of a sysfs tree with a modalias, and
 * the SysfsEntry records it returns; their builder, sysfs_entry_append(),
 * is also Snapshot.walk()'s (snapshot.c), so that a walk of sysfs and of a
 * snapshot of it give the same records.
 *
 * It may not read sysfs itself (the library walks, modalias_sysfs_foreach())
 * nor release the GIL: the walk's callback builds Python objects.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

PyTypeObject *SysfsEntryType;

static PyStructSequence_Field sysfs_entry_fields[] = {
	{ "devpath", "the device's path below the sysfs root ('/devices/...')" },
	{ "device", "its Device, or None when its modalias could not be read" },
	{ "errno", "0, or the (positive) errno of reading its modalias" },
	{ NULL, NULL },
};
PyStructSequence_Desc sysfs_entry_desc = {
	"modalias.SysfsEntry",
	"A device found by walk_sysfs(): (devpath, device, errno).",
	sysfs_entry_fields, 3,
};

int sysfs_entry_append(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct sysfs_walk *w = data;
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

PyObject *mod_walk_sysfs(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "sysfs_root", NULL };
	PyObject *root = NULL;
	struct modalias_ctx *ctx;
	struct sysfs_walk w = { NULL, 0 };
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
	r = modalias_sysfs_foreach(ctx, sysfs_entry_append, &w);
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
