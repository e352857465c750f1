/*
 * loader.c: the Loader type (loading modules through libkmod, a dry run by
 * default) and the LoadRecord records a load returns.
 *
 * Calls are serialised per loader (libkmod contexts are not thread-safe)
 * and run with the GIL released (loader_run()): the library reports each
 * module to on_load(), which copies the report into C memory (struct
 * recs); the records become Python objects once the GIL is back.  It may
 * not touch a Python object while the GIL is released, nor take a
 * table's lock before the loader's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

PyTypeObject *LoadRecordType;

static PyStructSequence_Field load_record_fields[] = {
	{ "module", "the module's name" },
	{ "detail", "its path (what modprobe -n -v prints after insmod), the install command, or ''" },
	{ "options", "its options from modprobe.d, or ''" },
	{ "state", "inserted, would insert, install command, already loaded, builtin, blacklisted, failed, "
		   "not found" },
	{ "errno", "for failed and not found, the (positive) errno; else 0" },
	{ NULL, NULL },
};
PyStructSequence_Desc load_record_desc = {
	"modalias.LoadRecord",
	"What a load did to one module: (module, detail, options, state, errno).",
	load_record_fields, 5,
};

typedef struct {
	HandleObject h;       /* h.ptr: struct modalias_loader * */
	pthread_mutex_t lock; /* libkmod contexts are not thread-safe */
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

static void loader_unref(void *ptr)
{
	modalias_loader_unref(ptr);
}

static const struct handle_kind loader_kind = { "Loader", loader_unref };

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
	self->h.ptr = loader;
	self->h.kind = &loader_kind;
	pthread_mutex_init(&self->lock, NULL);
	return (PyObject *)self;
}

static void Loader_dealloc(LoaderObject *self)
{
	handle_release(&self->h);
	pthread_mutex_destroy(&self->lock);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* What one call does. */
enum loader_op {
	OP_LOAD,
	OP_LOAD_MODULE,
	OP_ADD_BLACKLIST,
	OP_REVALIDATE,
};

/* One call: what and its arguments, in C memory. */
struct loader_call {
	enum loader_op op;
	const char *name;             /* an alias or a module name */
	unsigned int flags;           /* MODALIAS_LOAD_* */
	struct modalias_table *table; /* a C reference of this call's */
	pthread_rwlock_t *table_lock; /* of a Table this call holds a reference to */
	struct recs recs;
};

/* The library's function for c->op (GIL released, the loader's lock held). */
static int loader_do(struct modalias_loader *loader, struct loader_call *c)
{
	int r;

	switch (c->op) {
	case OP_LOAD:
		pthread_rwlock_rdlock(c->table_lock);
		r = modalias_loader_load(loader, c->table, c->name, c->flags, on_load, &c->recs);
		pthread_rwlock_unlock(c->table_lock);
		return r;
	case OP_LOAD_MODULE:
		return modalias_loader_load_module(loader, c->name, c->flags, on_load, &c->recs);
	case OP_ADD_BLACKLIST:
		return modalias_loader_add_blacklist(loader, c->name);
	case OP_REVALIDATE:
		return modalias_loader_revalidate(loader);
	}
	return -EINVAL;
}

/* One call under the loader's lock, with the GIL released; *result is what
 * the library returned.  -1: the loader is closed (ValueError). */
static int loader_run(LoaderObject *self, struct loader_call *c, int *result)
{
	struct modalias_loader *loader;
	int r;

	*result = 0;
	if (handle_check(&self->h) < 0)
		return -1;
	loader = modalias_loader_ref(self->h.ptr);
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	r = loader_do(loader, c);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	modalias_loader_unref(loader);
	*result = r;
	return 0;
}

static PyObject *Loader_load(LoaderObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "table", "alias", "dry_run", NULL };
	PyObject *tableo, *aliaso, *l = NULL;
	int dry_run = 1, r;
	const char *alias;
	char *copy;
	struct loader_call c = { .op = OP_LOAD };
	TableObject *to;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!U|p:load", (char **)kwlist, &TableType, &tableo, &aliaso,
					 &dry_run))
		return NULL;
	alias = alias_arg(aliaso);
	if (!alias || cstr_dup(alias, &copy) < 0)
		return NULL;
	/* a closed loader is named before a closed table */
	if (handle_check(&self->h) < 0) {
		free(copy);
		return NULL;
	}
	/* our own reference: its lock is used with the GIL released */
	to = (TableObject *)tableo;
	Py_INCREF(to);
	c.table = table_get(to);
	if (c.table) {
		c.name = copy;
		c.flags = dry_run ? MODALIAS_LOAD_DRY_RUN : 0;
		c.table_lock = &to->lock;
		if (loader_run(self, &c, &r) == 0)
			l = recs_to_list(&c.recs, r, KIND_IO);
		table_put(c.table);
	}
	Py_DECREF(to);
	free(copy);
	recs_free(&c.recs);
	return l;
}

static PyObject *Loader_load_module(LoaderObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "module", "dry_run", NULL };
	const char *module;
	char *copy;
	int dry_run = 1, r;
	struct loader_call c = { .op = OP_LOAD_MODULE };
	PyObject *l = NULL;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|p:load_module", (char **)kwlist, &module, &dry_run) ||
	    cstr_dup(module, &copy) < 0)
		return NULL;
	c.name = copy;
	c.flags = dry_run ? MODALIAS_LOAD_DRY_RUN : 0;
	/* the library refuses what is not a module name (InputError) before
	 * libkmod sees it */
	if (loader_run(self, &c, &r) == 0)
		l = recs_to_list(&c.recs, r, KIND_INPUT);
	free(copy);
	recs_free(&c.recs);
	return l;
}

static PyObject *Loader_add_blacklist(LoaderObject *self, PyObject *args)
{
	struct loader_call c = { .op = OP_ADD_BLACKLIST };
	char *copy = str_arg_dup(args, "s:add_blacklist");
	int r, rc;

	if (!copy)
		return NULL;
	c.name = copy;
	rc = loader_run(self, &c, &r);
	free(copy);
	return none_or_raise(rc, r, KIND_INPUT);
}

static PyObject *Loader_revalidate(LoaderObject *self, PyObject *unused)
{
	struct loader_call c = { .op = OP_REVALIDATE };
	int r;

	if (loader_run(self, &c, &r) < 0)
		return NULL;
	if (r < 0)
		return raise_errno(r, KIND_IO, NULL);
	return PyBool_FromLong(r > 0);
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
	HANDLE_METHODS("loader", "close()\n\nReleases the loader and its libkmod context."),
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Loader_getset[] = {
	HANDLE_CLOSED_GETSET,
	{ NULL, NULL, NULL, NULL, NULL },
};

PyTypeObject LoaderType = {
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
