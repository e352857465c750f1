/*
 * table.c: the Table type: opening an alias table (a module directory, a
 * file, a string, an index cache), changing it (add, blacklists, more
 * files, modprobe.d, legacy maps) and reading it whole (save, write_map).
 * Its lookups, Table.resolve() and resolve_many(), are in resolve.c.
 *
 * Every change takes the table's write lock and rebuilds the index before
 * it returns, every read the read lock (table_run()), both waited for with
 * the GIL released, on arguments copied into C memory first.  It may not
 * touch a Python object between Py_BEGIN_ALLOW_THREADS and
 * Py_END_ALLOW_THREADS, nor call the library on an open table without its
 * lock.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void table_unref(void *ptr)
{
	modalias_table_unref(ptr);
}

static const struct handle_kind table_kind = { "Table", table_unref };

static TableObject *table_alloc(PyTypeObject *type)
{
	TableObject *self = (TableObject *)type->tp_alloc(type, 0);

	if (!self)
		return NULL;
	self->h.ptr = NULL;
	self->h.kind = &table_kind;
	self->skipped = 0;
	pthread_rwlock_init(&self->lock, NULL);
	return self;
}

static void Table_dealloc(TableObject *self)
{
	handle_release(&self->h);
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
	self->h.ptr = t;
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

/* ---- construction --------------------------------------------------------------- */

/* A constructor that reads files: runs with the GIL released, on a context
 * of its own, with a and b (bytes of this call, or NULL). */
typedef int (*table_open_fn)(struct modalias_ctx *ctx, const char *a, const char *b, struct modalias_table **t);

static PyObject *table_open(PyTypeObject *type, table_open_fn fn, PyObject *a, PyObject *b, const char *what,
			    const char *filename)
{
	struct modalias_ctx *ctx = new_ctx(NULL);
	TableObject *self = ctx ? table_alloc(type) : NULL;
	struct modalias_table *t = NULL;
	const char *as = bytes_or_null(a), *bs = bytes_or_null(b);
	int r;

	if (!self) {
		modalias_ctx_unref(ctx);
		return NULL;
	}
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	r = fn(ctx, as, bs, &t);
	Py_END_ALLOW_THREADS
	modalias_ctx_unref(ctx);
	return table_finish_new(self, t, r, what, filename);
}

static int open_file(struct modalias_ctx *ctx, const char *path, const char *unused, struct modalias_table **t)
{
	int r = modalias_table_new(ctx, t);

	return r < 0 ? r : modalias_table_load_file(*t, path);
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "directory", "cache_dir", NULL };
	PyObject *dir = NULL, *cache = NULL, *ret;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O&O&:Table", (char **)kwlist, opt_path_conv, &dir,
					 opt_path_conv, &cache))
		return NULL;
	ret = table_open(type, modalias_table_open, dir, cache, dir ? PyBytes_AS_STRING(dir) : "modules.alias",
			 bytes_or_null(dir));
	Py_XDECREF(dir);
	Py_XDECREF(cache);
	return ret;
}

static PyObject *Table_from_file(PyObject *cls, PyObject *args)
{
	PyObject *path = NULL, *ret;

	if (!PyArg_ParseTuple(args, "O&:from_file", PyUnicode_FSConverter, &path))
		return NULL;
	ret = table_open((PyTypeObject *)cls, open_file, path, NULL, PyBytes_AS_STRING(path), PyBytes_AS_STRING(path));
	Py_DECREF(path);
	return ret;
}

static PyObject *Table_from_cache(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "path", "directory", NULL };
	PyObject *path = NULL, *dir = NULL, *ret;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|O&:from_cache", (char **)kwlist, PyUnicode_FSConverter,
					 &path, opt_path_conv, &dir))
		return NULL;
	ret = table_open((PyTypeObject *)cls, modalias_table_new_from_cache, path, dir, PyBytes_AS_STRING(path),
			 PyBytes_AS_STRING(path));
	Py_DECREF(path);
	Py_XDECREF(dir);
	return ret;
}

/* An empty table, for what is loaded with the GIL held. */
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

/* ---- calls on an open table ------------------------------------------------------ */

struct modalias_table *table_get(TableObject *self)
{
	if (handle_check(&self->h) < 0)
		return NULL;
	return modalias_table_ref(self->h.ptr);
}

void table_put(struct modalias_table *t)
{
	modalias_table_unref(t);
}

/* What one call does to the table.  The changes run under the write lock
 * and rebuild the index after them, the reads under the read lock. */
enum table_op {
	OP_ADD,
	OP_ADD_BLACKLIST,
	OP_LOAD_FILE,
	OP_LOAD_BUFFER,
	OP_LOAD_CONFIG,
	OP_LOAD_MAP, /* the last change */
	OP_IS_BLACKLISTED,
	OP_SAVE,
	OP_WRITE_MAP,
};

/* One call: what and its arguments, in C memory or bytes the call owns. */
struct table_call {
	enum table_op op;
	const char *a, *b;
	size_t len;
	const char *const *v;
	const void *map;
	unsigned int flags;
	int type;
	FILE *out;
};

/* The library's function for c->op (GIL released, the lock held). */
static int table_do(struct modalias_table *t, const struct table_call *c)
{
	switch (c->op) {
	case OP_ADD:
		return modalias_table_add(t, c->a, c->b);
	case OP_ADD_BLACKLIST:
		return modalias_table_add_blacklist(t, c->a);
	case OP_LOAD_FILE:
		return modalias_table_load_file(t, c->a);
	case OP_LOAD_BUFFER:
		return modalias_table_load_buffer(t, c->b, c->a, c->len);
	case OP_LOAD_CONFIG:
		return modalias_table_load_config(t, c->v);
	case OP_LOAD_MAP:
		return modalias_table_load_map(t, c->map, c->flags);
	case OP_IS_BLACKLISTED:
		return modalias_table_is_blacklisted(t, c->a);
	case OP_SAVE:
		return modalias_table_save(t, c->a);
	case OP_WRITE_MAP:
		return modalias_table_write_map(t, c->type, c->out);
	}
	return -EINVAL;
}

/* One call on the table with the GIL released; *result is what the
 * library returned (or the index rebuild's failure).  -1: the table is
 * closed (ValueError). */
static int table_run(TableObject *self, const struct table_call *c, int *result)
{
	struct modalias_table *t = table_get(self);
	bool change = c->op <= OP_LOAD_MAP;
	int r, p = 0;

	*result = 0;
	if (!t)
		return -1;
	log_reset();
	Py_BEGIN_ALLOW_THREADS
	if (change)
		pthread_rwlock_wrlock(&self->lock);
	else
		pthread_rwlock_rdlock(&self->lock);
	r = table_do(t, c);
	if (change && r >= 0)
		p = table_prepare_locked(t);
	pthread_rwlock_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	table_put(t);
	*result = r >= 0 && p < 0 ? p : r;
	return 0;
}

/* ---- the methods ------------------------------------------------------------------ */

static PyObject *Table_add(TableObject *self, PyObject *args)
{
	struct table_call c = { .op = OP_ADD };
	const char *pattern, *module;
	char *pc = NULL, *mc = NULL;
	int r, rc;

	if (!PyArg_ParseTuple(args, "ss:add", &pattern, &module))
		return NULL;
	if (cstr_dup(pattern, &pc) < 0 || cstr_dup(module, &mc) < 0) {
		free(pc);
		return NULL;
	}
	c.a = pc;
	c.b = mc;
	rc = table_run(self, &c, &r);
	free(pc);
	free(mc);
	return none_or_raise(rc, r, KIND_INPUT);
}

/* A call on a method's one str argument (format "s:NAME"), copied into C
 * memory: as table_run(), -1 also for a bad argument. */
static int table_run_str(TableObject *self, PyObject *args, const char *format, enum table_op op, int *result)
{
	struct table_call c = { .op = op };
	char *copy = str_arg_dup(args, format);
	int rc;

	*result = 0;
	if (!copy)
		return -1;
	c.a = copy;
	rc = table_run(self, &c, result);
	free(copy);
	return rc;
}

static PyObject *Table_add_blacklist(TableObject *self, PyObject *args)
{
	int r, rc = table_run_str(self, args, "s:add_blacklist", OP_ADD_BLACKLIST, &r);

	return none_or_raise(rc, r, KIND_INPUT);
}

static PyObject *Table_is_blacklisted(TableObject *self, PyObject *args)
{
	int r;

	if (table_run_str(self, args, "s:is_blacklisted", OP_IS_BLACKLISTED, &r) < 0)
		return NULL;
	log_reset();
	return PyBool_FromLong(r);
}

/* A call on a method's one path argument (format "O&:NAME"): what the
 * library returned (>= 0), or -1 with an exception (a failure of the
 * library names the file).  *path: its bytes, or NULL (Py_XDECREF it). */
static int table_run_path(TableObject *self, PyObject *args, const char *format, enum table_op op, PyObject **path)
{
	struct table_call c = { .op = op };
	int r;

	*path = NULL;
	if (!PyArg_ParseTuple(args, format, PyUnicode_FSConverter, path))
		return -1;
	c.a = PyBytes_AS_STRING(*path);
	if (table_run(self, &c, &r) < 0)
		return -1;
	if (r < 0) {
		raise_errno(r, KIND_IO, c.a);
		return -1;
	}
	return r;
}

static PyObject *Table_load_file(TableObject *self, PyObject *args)
{
	PyObject *path;
	int skipped = table_run_path(self, args, "O&:load_file", OP_LOAD_FILE, &path), r = -1;

	if (skipped >= 0) {
		self->skipped += skipped;
		r = warn_skipped(skipped, PyBytes_AS_STRING(path));
	}
	Py_XDECREF(path);
	return r < 0 ? NULL : PyLong_FromLong(skipped);
}

static PyObject *Table_load_string(TableObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "text", "name", NULL };
	struct table_call c = { .op = OP_LOAD_BUFFER };
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
	c.a = tc;
	c.b = nc;
	c.len = (size_t)len;
	rc = table_run(self, &c, &r);
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
	struct table_call c = { .op = OP_LOAD_CONFIG };
	int r, rc;

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:load_config", (char **)kwlist, &paths))
		return NULL;
	if (path_list_init(&pl, paths) < 0)
		return NULL;
	c.v = pl.v;
	rc = table_run(self, &c, &r);
	path_list_clear(&pl);
	return none_or_raise(rc, r, KIND_IO);
}

static PyObject *Table_load_map(TableObject *self, PyObject *args, PyObject *kwargs)
{
	static const char *kwlist[] = { "map", "dialect_2_6", NULL };
	PyObject *mapo;
	struct modalias_map *map;
	int dialect = 0, r, rc;
	struct table_call c = { .op = OP_LOAD_MAP };

	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!|p:load_map", (char **)kwlist, &MapType, &mapo, &dialect))
		return NULL;
	if (handle_check(&((MapObject *)mapo)->h) < 0)
		return NULL;
	/* a C reference of our own: another thread may close() the Map while
	 * the GIL is released */
	map = modalias_map_ref(((MapObject *)mapo)->h.ptr);
	c.map = map;
	c.flags = dialect ? MODALIAS_MAP_DIALECT_2_6 : 0;
	rc = table_run(self, &c, &r);
	modalias_map_unref(map);
	if (rc < 0)
		return NULL;
	if (r < 0)
		return raise_errno(r, KIND_INPUT, NULL);
	log_reset();
	return PyLong_FromLong(r);
}

static PyObject *Table_save(TableObject *self, PyObject *args)
{
	PyObject *path;
	int r = table_run_path(self, args, "O&:save", OP_SAVE, &path);

	Py_XDECREF(path);
	if (r < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *Table_write_map(TableObject *self, PyObject *args)
{
	PyObject *typeo, *s;
	struct table_call c = { .op = OP_WRITE_MAP };
	char *buf = NULL;
	size_t len = 0;
	int type, r, rc;

	if (!PyArg_ParseTuple(args, "O:write_map", &typeo))
		return NULL;
	if (map_type_arg(typeo, &type) < 0)
		return NULL;
	if (type < 0) {
		PyErr_SetString(InputError, "write_map() needs a map type");
		return NULL;
	}
	c.type = type;
	c.out = open_memstream(&buf, &len);
	if (!c.out)
		return PyErr_NoMemory();
	rc = table_run(self, &c, &r);
	fclose(c.out);
	if (rc < 0 || r < 0) {
		free(buf);
		if (rc < 0)
			return NULL;
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
	  "from_cache(path, directory=None) -> Table\n\nOpens an index cache written by save() (mmap, no "
	  "parsing).  With\ndirectory, the cache must be current for it (Error with errno ESTALE\notherwise)." },
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
	HANDLE_METHODS("table", "close()\n\nReleases the C table now (lookups in flight finish first); later "
				"calls raise\nValueError.  Closing twice is harmless."),
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Table_getset[] = {
	HANDLE_CLOSED_GETSET,
	{ "pattern_count", (getter)Table_get_pattern_count, NULL, "The number of patterns of the modules.alias source.", NULL },
	{ "memory", (getter)Table_get_memory, NULL, "Bytes taken by its strings, patterns and index.", NULL },
	{ "skipped", (getter)Table_get_skipped, NULL, "The number of malformed lines skipped while loading.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyTypeObject TableType = {
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
