/*
 * map.c: the Map type, a legacy modules.*map file (or a hotplug user map),
 * and the MapEntry rows it yields: reading, matching devices, alias
 * generation.  Table.load_map() and write_map() are Table's (table.c).
 *
 * It may not guess a column's shape: modalias_map_type_field_kind() says
 * it (map_field_is_list()).  It keeps the GIL throughout: a Map has no
 * lock of its own, so no other thread's close() may come between a check
 * and a use (Table.load_map() takes a C reference of its own before it
 * lets go of the GIL).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

PyTypeObject *MapEntryType;

static PyStructSequence_Field map_entry_fields[] = {
	{ "module", "the row's module, as written (depmod kept its dashes)" },
	{ "line", "the line of the file it is on (from 1)" },
	{ "fields", "dict: column name -> int, str, or list of int (input bitmaps, isapnp ids)" },
	{ "index", "the row's index in its map" },
	{ NULL, NULL },
};
PyStructSequence_Desc map_entry_desc = {
	"modalias.MapEntry",
	"One row of a legacy modules.*map file: (module, line, fields, index).",
	map_entry_fields, 4,
};

static void map_unref(void *ptr)
{
	modalias_map_unref(ptr);
}

static const struct handle_kind map_kind = { "Map", map_unref };

/* The C map of an open Map (after handle_check()). */
static struct modalias_map *map_of(MapObject *self)
{
	return self->h.ptr;
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
	self->h.ptr = map;
	self->h.kind = &map_kind;
	self->skipped = r;
	if (warn_skipped(r, what) < 0) {
		Py_DECREF(self);
		return NULL;
	}
	return (PyObject *)self;
}

/* A context for reading a map, with the word size of its bitmaps when
 * given (word_bits= as Device.from_env()'s, modalias map --word-bits). */
static struct modalias_ctx *map_ctx(unsigned int word_bits)
{
	struct modalias_ctx *ctx = new_ctx(NULL);

	if (ctx && modalias_ctx_set_word_bits(ctx, word_bits) < 0) {
		PyErr_Format(InputError, "word_bits is 32 or 64 (or 0: the bitmaps tell, else this machine's), not %u",
			     word_bits);
		modalias_ctx_unref(ctx);
		return NULL;
	}
	return ctx;
}

static PyObject *Map_from_file(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "path", "type", "word_bits", NULL };
	PyObject *path = NULL, *typeo = Py_None, *ret;
	struct modalias_ctx *ctx;
	struct modalias_map *map = NULL;
	unsigned int word_bits = 0;
	int type, r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|O$I:from_file", (char **)kwlist, PyUnicode_FSConverter,
					 &path, &typeo, &word_bits))
		return NULL;
	if (map_type_arg(typeo, &type) < 0 || !(ctx = map_ctx(word_bits))) {
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
	static const char *kwlist[] = { "text", "name", "type", "word_bits", NULL };
	const char *text, *name = NULL;
	Py_ssize_t len;
	PyObject *typeo = Py_None;
	struct modalias_ctx *ctx;
	struct modalias_map *map = NULL;
	unsigned int word_bits = 0;
	int type, r;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#|zO$I:from_string", (char **)kwlist, &text, &len, &name,
					 &typeo, &word_bits))
		return NULL;
	if (map_type_arg(typeo, &type) < 0 || !(ctx = map_ctx(word_bits)))
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
	handle_release(&self->h);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A column that holds several numbers (a bitmap's words, a list), as the
 * library declares it. */
static bool map_field_is_list(int type, const char *field)
{
	int kind = modalias_map_type_field_kind(type, field);

	return kind == MODALIAS_MAP_FIELD_BITMAP || kind == MODALIAS_MAP_FIELD_LIST;
}

static PyObject *map_entry(MapObject *self, unsigned int index)
{
	struct modalias_map *map = map_of(self);
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

static Py_ssize_t Map_len(MapObject *self)
{
	int n;

	if (handle_check(&self->h) < 0)
		return -1;
	n = modalias_map_get_count(map_of(self));
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
	if (handle_check(&self->h) < 0)
		return NULL;
	return PyUnicode_FromString(modalias_map_type_name(modalias_map_get_type(map_of(self))));
}

static PyObject *Map_get_name(MapObject *self, void *closure)
{
	const char *n;

	if (handle_check(&self->h) < 0)
		return NULL;
	n = modalias_map_get_name(map_of(self));
	if (!n)
		Py_RETURN_NONE;
	return PyUnicode_DecodeFSDefault(n);
}

static PyObject *Map_get_columns(MapObject *self, void *closure)
{
	const char *f;
	PyObject *l;
	int type;

	if (handle_check(&self->h) < 0)
		return NULL;
	type = modalias_map_get_type(map_of(self));
	l = PyList_New(0);
	for (unsigned int i = 0; l && (f = modalias_map_type_field_name(type, i)); i++)
		if (list_append_str(l, f) < 0)
			Py_CLEAR(l);
	return l;
}

static PyObject *Map_get_skipped(MapObject *self, void *closure)
{
	return PyLong_FromLong(self->skipped + self->no_alias);
}

static PyObject *Map_get_word_bits(MapObject *self, void *closure)
{
	if (handle_check(&self->h) < 0)
		return NULL;
	return PyLong_FromLong(modalias_map_get_word_bits(map_of(self)));
}

static int Map_set_word_bits(MapObject *self, PyObject *value, void *closure)
{
	long bits;
	int r;

	if (handle_check(&self->h) < 0)
		return -1;
	if (!value) {
		PyErr_SetString(PyExc_AttributeError, "word_bits cannot be deleted");
		return -1;
	}
	bits = PyLong_AsLong(value);
	if (bits == -1 && PyErr_Occurred())
		return -1;
	log_reset();
	r = modalias_map_set_word_bits(map_of(self), bits < 0 || bits > 1024 ? 0u : (unsigned int)bits);
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
	if (handle_check(&self->h) < 0)
		return NULL;
	log_reset();
	n = modalias_map_get_aliases(map_of(self), index, dialect ? MODALIAS_MAP_DIALECT_2_6 : 0, &v);
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
	int dialect = 0, count, none;
	PyObject *out;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:to_aliases", (char **)kwlist, &dialect))
		return NULL;
	if (handle_check(&self->h) < 0)
		return NULL;
	count = modalias_map_get_count(map_of(self));
	out = PyList_New(0);
	/* the messages of the rows without alias, said once at the end */
	log_reset();
	none = 0;
	for (int i = 0; out && i < count; i++) {
		char **v = NULL;
		int n;
		const char *module = modalias_map_get_module(map_of(self), (unsigned int)i);

		n = modalias_map_get_aliases(map_of(self), (unsigned int)i, dialect ? MODALIAS_MAP_DIALECT_2_6 : 0, &v);
		if (n < 0) {
			Py_CLEAR(out);
			return raise_errno(n, KIND_INPUT, NULL);
		}
		none += n == 0;
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
	if (!out) {
		log_reset();
		return NULL;
	}
	self->no_alias = none;
	if (warn_no_alias(none, modalias_map_get_name(map_of(self))) < 0)
		Py_CLEAR(out);
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
	if (handle_check(&self->h) < 0)
		return NULL;
	l = PyList_New(0);
	while (l) {
		PyObject *e;
		log_reset();
		r = modalias_map_match(map_of(self), ((DeviceObject *)arg)->dev, start, &index);
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

static PyMethodDef Map_methods[] = {
	{ "from_file", (PyCFunction)(void (*)(void))Map_from_file, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_file(path, type=None, *, word_bits=0) -> Map\n\nReads a legacy modules.*map file (or a hotplug "
	  "user map).  type: 'usb', 'pci',\n'ieee1394', 'ccw', 'isapnp', 'input', 'of', 'serio' (or MAP_*), None to "
	  "take it\nfrom the header or the file name.  word_bits: 32 or 64, the word size of the kernel\nthe map was "
	  "written for, which its inputmap bitmaps do not say (0: the bitmaps tell\nwhere they can, else this "
	  "machine's), as modalias map --word-bits.  Bad rows are\nskipped with a ParseWarning." },
	{ "from_string", (PyCFunction)(void (*)(void))Map_from_string, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "from_string(text, name=None, type=None, *, word_bits=0) -> Map\n\nA map from its text (word_bits as "
	  "from_file())." },
	{ "aliases", (PyCFunction)(void (*)(void))Map_aliases, METH_VARARGS | METH_KEYWORDS,
	  "aliases(index, dialect_2_6=False) -> list[str]\n\nThe modules.alias patterns of one row, as "
	  "the kernel's file2alias writes them." },
	{ "to_aliases", (PyCFunction)(void (*)(void))Map_to_aliases, METH_VARARGS | METH_KEYWORDS,
	  "to_aliases(dialect_2_6=False) -> list[tuple[str, str]]\n\n(pattern, module) for every row, "
	  "as modules.alias lines; dialect_2_6 writes\nthem as kernels before 3.x did.  Rows that give no alias "
	  "(as file2alias: a pcimap\nclass_mask not of whole bytes, ...) are counted in .skipped and named in a "
	  "ParseWarning." },
	{ "match", (PyCFunction)Map_match, METH_O,
	  "match(device) -> list[MapEntry]\n\nThe rows that match a Device, as the kernel matches its "
	  "device tables." },
	HANDLE_METHODS("map", "close()\n\nReleases the C map."),
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Map_getset[] = {
	{ "type", (getter)Map_get_type, NULL, "The kind of map: 'usb', 'pci', ... (the file is modules.TYPEmap).", NULL },
	{ "name", (getter)Map_get_name, NULL, "The file (or buffer) name it was read from.", NULL },
	{ "columns", (getter)Map_get_columns, NULL, "The column names of its type.", NULL },
	{ "entries", (getter)Map_get_entries, NULL, "A new list of all its rows (MapEntry).", NULL },
	{ "skipped", (getter)Map_get_skipped, NULL,
	  "The number of bad rows skipped when read, and of rows the last to_aliases() made no alias of.", NULL },
	HANDLE_CLOSED_GETSET,
	{ "word_bits", (getter)Map_get_word_bits, (setter)Map_set_word_bits,
	  "The word size (32 or 64) of inputmap bitmaps; settable.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PySequenceMethods Map_as_sequence = {
	.sq_length = (lenfunc)Map_len,
	.sq_item = (ssizeargfunc)Map_item,
};

PyTypeObject MapType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "modalias.Map",
	.tp_basicsize = sizeof(MapObject),
	.tp_dealloc = (destructor)Map_dealloc,
	.tp_as_sequence = &Map_as_sequence,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "Map(path, type=None, *, word_bits=0)\n\n"
		  "A legacy modules.*map file (module-init-tools' depmod until 2012, and hotplug\n"
		  "user maps).  A sequence of MapEntry rows; match() devices against it, turn it\n"
		  "into aliases with to_aliases(), or load it into a Table (Table.load_map()).\n"
		  "Map(path) is Map.from_file(path).  A context manager.",
	.tp_methods = Map_methods,
	.tp_getset = Map_getset,
	.tp_new = Map_new,
};
