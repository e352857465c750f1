/*
 * module.c: the modalias module: its init (types, exceptions, constants,
 * in one namespace) and the module-level functions (build, parse,
 * from_env, from_sysfs, buses, bus_fields, field_help, map_types;
 * walk_sysfs is walk.c's, sysfs_driver, sysfs_module_loaded and
 * sysfs_devpath snapshot.c's).
 *
 * It may not hold the code of a type (each is in a file of its own, which
 * defines its type object or record description; the tables below name
 * them) nor release the GIL: these functions are short and read only the
 * library's static descriptions.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <string.h>

#ifndef MODALIAS_VERSION
#define MODALIAS_VERSION "unknown"
#endif
#ifndef BUNDLED_MODDIR
#define BUNDLED_MODDIR ""
#endif
#ifndef SOURCE_MODDIR
#define SOURCE_MODDIR ""
#endif

#include "bundled-table.h"

/* ---- functions over devices ------------------------------------------------------- */

static PyObject *mod_build(PyObject *self, PyObject *args, PyObject *kwargs)
{
	const char *bus;
	struct modalias_dev *dev;
	PyObject *s;

	if (!PyArg_ParseTuple(args, "s:build", &bus))
		return NULL;
	dev = device_new_kwargs(bus, kwargs);
	if (!dev)
		return NULL;
	s = device_format(dev);
	modalias_dev_unref(dev);
	return s;
}

static PyObject *mod_parse(PyObject *self, PyObject *args)
{
	return device_parse(&DeviceType, args);
}

static PyObject *mod_from_env(PyObject *self, PyObject *args, PyObject *kwargs)
{
	return device_from_env(&DeviceType, args, kwargs);
}

static PyObject *mod_from_sysfs(PyObject *self, PyObject *args, PyObject *kwargs)
{
	return device_from_sysfs(&DeviceType, args, kwargs);
}

/* ---- what the library knows ---------------------------------------------------------- */

static PyObject *mod_buses(PyObject *self, PyObject *unused)
{
	PyObject *l = PyList_New(0);
	const char *b;

	for (unsigned int i = 0; l && (b = modalias_bus_name(i)); i++)
		if (list_append_str(l, b) < 0)
			Py_CLEAR(l);
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
	for (unsigned int i = 0; l && (f = modalias_bus_field_name(bus, i)); i++)
		if (list_append_str(l, f) < 0)
			Py_CLEAR(l);
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

static PyObject *mod_map_types(PyObject *self, PyObject *unused)
{
	PyObject *l = PyList_New(0);
	const char *n;

	for (int i = 0; l && (n = modalias_map_type_name(i)); i++)
		if (list_append_str(l, n) < 0)
			Py_CLEAR(l);
	return l;
}

static PyMethodDef module_methods[] = {
	{ "build", (PyCFunction)(void (*)(void))mod_build, METH_VARARGS | METH_KEYWORDS,
	  "build(bus, /, **fields) -> str\n\nThe kernel's modalias for these IDs: build('usb', "
	  "idVendor='046d', idProduct=0xc52b).\nValues are hex text, int, or lists for list fields.  "
	  "Fields today's kernels\nalways write (USB's bInterfaceNumber, HID's group) are 0 unless given; "
	  "None leaves\none out, as old kernels did.  InputError (a ValueError) names a bad field or value." },
	{ "parse", mod_parse, METH_VARARGS,
	  "parse(modalias) -> Device\n\nThe bus and named fields of a modalias string (Device.parse())." },
	{ "from_env", (PyCFunction)(void (*)(void))mod_from_env, METH_VARARGS | METH_KEYWORDS,
	  "from_env(env, subsystem=None, sysfs_root=None, *, word_bits=0) -> Device\n\nDevice.from_env(): the device of a "
	  "kernel event's variables." },
	{ "from_sysfs", (PyCFunction)(void (*)(void))mod_from_sysfs, METH_VARARGS | METH_KEYWORDS,
	  "from_sysfs(devpath, sysfs_root=None) -> Device\n\nDevice.from_sysfs(): a device's modalias from "
	  "sysfs." },
	{ "walk_sysfs", (PyCFunction)(void (*)(void))mod_walk_sysfs, METH_VARARGS | METH_KEYWORDS,
	  "walk_sysfs(sysfs_root=None) -> list[SysfsEntry]\n\nEvery device under SYSFS_ROOT/devices that "
	  "has a modalias (and those whose\nmodalias could not be read, with their errno), parents first." },
	{ "sysfs_driver", (PyCFunction)(void (*)(void))mod_sysfs_driver, METH_VARARGS | METH_KEYWORDS,
	  "sysfs_driver(devpath, sysfs_root=None) -> tuple[str | None, str | None, str | None]\n\n"
	  "(driver, driver_module, driver_override) of a device in sysfs: the driver bound\nto it (its "
	  "'driver' link; a captured tree's '.driver' file; else uevent's DRIVER=), that\ndriver's module (None: builtin), its "
	  "driver_override; None where unset, and for a device\nthat does not exist.  InputError for a "
	  "devpath that leaves the sysfs root." },
	{ "sysfs_module_loaded", (PyCFunction)(void (*)(void))mod_sysfs_module_loaded, METH_VARARGS | METH_KEYWORDS,
	  "sysfs_module_loaded(name, sysfs_root=None) -> bool\n\nWhether SYSFS_ROOT/module/NAME/initstate "
	  "says 'live' (a builtin module has none).\nInputError for a name that is no module's." },
	{ "sysfs_devpath", (PyCFunction)(void (*)(void))mod_sysfs_devpath, METH_VARARGS | METH_KEYWORDS,
	  "sysfs_devpath(path, sysfs_root=None) -> str\n\nThe devpath ('/devices/...') of the device a path below "
	  "the sysfs root leads\nto ('class/net/eth0', 'bus/pci/devices/0000:00:1f.2', a devpath), its links "
	  "followed\ninside the root.  NotFoundError when a component is not there; Error with\nerrno EXDEV "
	  "when the path or a link leads out of the root (even back into it),\nELOOP for more than 40 links, "
	  "ENOTDIR when a file is walked into, ENODEV\nwhen it leads to no directory below SYSFS_ROOT/devices." },
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
		 "(Map); load modules through libkmod (Loader, dry run by default); keep what\n"
		 "a machine's sysfs says of its devices and answer from it offline (Snapshot).\n\n"
		 "Failures raise Error (an OSError with errno and the library's message) or one\n"
		 "of its subclasses: InputError (also a ValueError), NotFoundError (also a\n"
		 "FileNotFoundError), AccessError (also a PermissionError), UnsupportedError.",
	.m_size = -1,
	.m_methods = module_methods,
};

static int add_type(PyObject *m, const char *name, PyTypeObject *t)
{
	Py_INCREF(t);
	if (PyModule_AddObject(m, name, (PyObject *)t) < 0) {
		Py_DECREF(t);
		return -1;
	}
	return 0;
}

/* The classes, in the order they enter the module; Fields (a dict that
 * Device.fields returns) is made ready but not named there. */
static const struct {
	const char *name;
	PyTypeObject *type;
} classes[] = {
	{ "Device", &DeviceType },
	{ "Table", &TableType },
	{ "Map", &MapType },
	{ "Loader", &LoaderType },
	{ "Snapshot", &SnapshotType },
	{ NULL, &FieldsType },
};

/* The records (struct sequences), after the classes: named as their
 * description's "modalias.NAME". */
static const struct {
	PyStructSequence_Desc *desc;
	PyTypeObject **type;
} records[] = {
	{ &module_desc, &ModuleType },
	{ &map_entry_desc, &MapEntryType },
	{ &load_record_desc, &LoadRecordType },
	{ &sysfs_entry_desc, &SysfsEntryType },
};

PyMODINIT_FUNC PyInit_modalias(void);
PyMODINIT_FUNC PyInit_modalias(void)
{
	/* the trust walk once: where it is, else where it would be installed */
	const char *bundled = bundled_table_dir();
	PyObject *m;

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (PyType_Ready(classes[i].type) < 0)
			return NULL;
	m = PyModule_Create(&moduledef);
	if (!m)
		return NULL;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (classes[i].name && add_type(m, classes[i].name, classes[i].type) < 0)
			goto fail;
	for (size_t i = 0; i < sizeof(records) / sizeof(records[0]); i++) {
		*records[i].type = PyStructSequence_NewType(records[i].desc);
		if (!*records[i].type || add_type(m, strchr(records[i].desc->name, '.') + 1, *records[i].type) < 0)
			goto fail;
	}
	if (errors_add_exceptions(m) < 0)
		goto fail;
	if (PyModule_AddStringConstant(m, "__version__", MODALIAS_VERSION) < 0 ||
	    PyModule_AddStringConstant(m, "BUNDLED_TABLE", bundled ? bundled : BUNDLED_MODDIR) < 0 ||
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
