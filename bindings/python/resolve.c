/*
 * resolve.c: Table.resolve() and Table.resolve_many(), the lookups, and
 * the Module records they return.
 *
 * A lookup runs with the GIL released under the table's read lock, on an
 * alias copied into C memory first (for resolve_many() every alias, before
 * the first lookup: struct alias_batch), with a struct modalias_result of
 * its own; the read lock is held until the answer is copied into Python
 * objects.  It may not change the table, nor touch a Python object while
 * the GIL is released.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <stdlib.h>
#include <string.h>

PyTypeObject *ModuleType;

static PyStructSequence_Field module_fields[] = {
	{ "name", "the module's name, normalised ('_', not '-')" },
	{ "builtin", "whether it is built into the kernel" },
	{ "patterns", "the patterns that matched (tuple of str)" },
	{ "source", "which source answered: config, name, symbol, command, alias, builtin-alias, builtin" },
	{ "origins", "for each pattern, (file, line) it came from (line 0: not from a file)" },
	{ NULL, NULL },
};
PyStructSequence_Desc module_desc = {
	"modalias.Module",
	"A module a lookup found: (name, builtin, patterns, source, origins).",
	module_fields, 5,
};

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

PyObject *Table_resolve(TableObject *self, PyObject *arg)
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

/* The aliases are copied first (struct alias_batch): the call resolves
 * what the iterable held when it began. */
PyObject *Table_resolve_many(TableObject *self, PyObject *arg)
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
