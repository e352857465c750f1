/*
 * convert.c: the shared converters of the Python bindings.
 *
 * Holds what turns arguments into C values (paths, path lists, strings
 * without NUL characters, int field values) and the copies into C memory
 * that a call makes before it releases the GIL (cstr_dup(), struct
 * alias_batch), plus the small builders of Python values every type uses.
 * It may not call the library beyond plain data (no contexts, tables or
 * devices) nor release the GIL: it prepares what others use with it
 * released.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arguments in --------------------------------------------------------------- */

int opt_path_conv(PyObject *o, void *p)
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

const char *bytes_or_null(PyObject *b)
{
	return b ? PyBytes_AS_STRING(b) : NULL;
}

struct modalias_ctx *sysfs_path_args(PyObject *args, PyObject *kwargs, const char *format,
				     const char *const kwlist[], PyObject **path)
{
	PyObject *root = NULL;
	struct modalias_ctx *ctx;

	*path = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, (char **)kwlist, PyUnicode_FSConverter, path,
					 opt_path_conv, &root))
		return NULL;
	ctx = new_ctx(bytes_or_null(root));
	Py_XDECREF(root);
	if (!ctx)
		Py_CLEAR(*path);
	else
		log_reset();
	return ctx;
}

int cstr_dup(const char *s, char **out)
{
	*out = s ? strdup(s) : NULL;
	if (s && !*out) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

char *str_arg_dup(PyObject *args, const char *format)
{
	const char *s;
	char *copy;

	if (!PyArg_ParseTuple(args, format, &s) || cstr_dup(s, &copy) < 0)
		return NULL;
	return copy;
}

const char *str_no_nul(PyObject *str, const char *nul_msg)
{
	Py_ssize_t len;
	const char *s = PyUnicode_AsUTF8AndSize(str, &len);

	if (s && (size_t)len != strlen(s)) {
		PyErr_SetString(InputError, nul_msg);
		return NULL;
	}
	return s;
}

const char *alias_arg(PyObject *o)
{
	if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "aliases are str, not %.100s", Py_TYPE(o)->tp_name);
		return NULL;
	}
	return str_no_nul(o, "embedded null character in alias");
}

int uint_field(PyObject *o, unsigned long long *u, char text[32])
{
	*u = PyLong_AsUnsignedLongLong(o);
	if (*u == (unsigned long long)-1 && PyErr_Occurred())
		return -1;
	snprintf(text, 32, "%llx", *u);
	return 0;
}

int map_type_arg(PyObject *o, int *type)
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

void path_list_clear(struct path_list *pl)
{
	Py_CLEAR(pl->bytes);
	PyMem_Free(pl->v);
	pl->v = NULL;
}

int path_list_init(struct path_list *pl, PyObject *o)
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

void alias_batch_clear(struct alias_batch *b)
{
	free(b->text);
	free(b->start);
	memset(b, 0, sizeof(*b));
}

int alias_batch_init(struct alias_batch *b, PyObject *iterable)
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

/* ---- values out ------------------------------------------------------------------ */

int list_append_str(PyObject *l, const char *s)
{
	PyObject *o = PyUnicode_FromString(s);
	int r;

	if (!o)
		return -1;
	r = PyList_Append(l, o);
	Py_DECREF(o);
	return r;
}

PyObject *str_or_none(const char *s)
{
	if (!s)
		Py_RETURN_NONE;
	return PyUnicode_DecodeFSDefault(s);
}
