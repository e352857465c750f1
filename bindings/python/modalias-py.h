/*
 * modalias-py.h: the private header of the Python bindings (bindings/python).
 *
 * Holds the object layouts and type objects each file defines, and the
 * shared helpers (errors.c, convert.c, handle.c), declared once.  Included
 * by the bindings alone, first (Python.h must come before any system
 * header); it may not include the library's private headers: the bindings
 * are written against the public header (libmodalias.h) only.
 *
 * Each type's file defines its type object (or, for the records, its
 * PyStructSequence_Desc); module.c makes them ready and puts them, the
 * exceptions and the constants into the module, from one table.
 *
 * Files: module.c (the module: init, module-level functions, constants),
 * errors.c (the C library's messages, the exceptions), convert.c (argument
 * converters and copies), handle.c (close/with/closed of Table, Map,
 * Loader, Snapshot), device.c (Device, Fields), table.c (Table), resolve.c
 * (Table.resolve*, Module records), map.c (Map, MapEntry), loader.c
 * (Loader, LoadRecord), walk.c (walk_sysfs, SysfsEntry), snapshot.c
 * (Snapshot, sysfs_driver, sysfs_module_loaded, sysfs_devpath).
 *
 * Threading, for every file: the C objects are not shared with Python's
 * reference counts; a Table, a Map, a Loader and a Snapshot hold one C
 * reference that close() (or the end of a "with" block, or deallocation)
 * drops.  Table lookups run with the GIL released, under the table's read
 * lock, each with its own struct modalias_result; changes to a table take
 * the write lock and rebuild the index before they return
 * (modalias_table_prepare()), so that lookups never modify it.  A snapshot
 * never changes once made and has no lock.  Every lock is waited for with
 * the GIL released.  Messages of the C library are captured per thread and
 * become the text of the exceptions.
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
#ifndef MODALIAS_PY_H
#define MODALIAS_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdbool.h>

#include <libmodalias.h>

/* ---- errors.c: the C library's messages and the exceptions ---------------- */

extern PyObject *Error;            /* OSError */
extern PyObject *InputError;       /* Error, ValueError */
extern PyObject *NotFoundError;    /* Error, FileNotFoundError */
extern PyObject *AccessError;      /* Error, PermissionError */
extern PyObject *UnsupportedError; /* Error */
extern PyObject *ParseWarning;     /* UserWarning */

enum err_kind {
	KIND_IO,    /* files and directories: ENOENT is "not found" */
	KIND_INPUT, /* values, fields, buses, module names: ENOENT is "no such
		     * field/bus", ENAMETOOLONG a name too long */
	KIND_DOC,   /* a file read whole as one document (a snapshot): as
		     * KIND_IO, and EBADMSG (not such a document) or
		     * EPROTONOSUPPORT (a version not known) is bad input */
};

/* Forgets the messages this thread's C calls logged so far. */
void log_reset(void);
/* Raises for a negative errno from the C library, with the messages it
 * logged; returns NULL. */
PyObject *raise_errno(int err, enum err_kind kind, const char *filename);
/* KeyError for a field the bus does not have, with the library's message
 * (from modalias_dev_get_count() or the like, which returned r). */
void raise_unknown_field(int r);
/* Skipped lines or rows: a ParseWarning with what the library said;
 * -1 when the warning became an exception. */
int warn_skipped(int skipped, const char *what);
/* A ParseWarning (when count > 0) that count rows of map WHAT gave no
 * alias, with why (the messages the C calls logged); forgets them.  0, or
 * -1 with the warning raised as an exception. */
int warn_no_alias(int count, const char *what);
/* What a method returns after a call on a C object (table_run(),
 * loader_run()): None, or NULL when rc < 0 (it was closed: the
 * exception is set) or r < 0 (the library failed: raise_errno()). */
PyObject *none_or_raise(int rc, int r, enum err_kind kind);
/* ValueError "operation on a closed WHAT"; returns NULL. */
PyObject *raise_closed(const char *what);
/* A context whose messages are captured; NULL with an exception. */
struct modalias_ctx *new_ctx(const char *sysfs_root);
/* Creates the exceptions and adds them to the module. */
int errors_add_exceptions(PyObject *m);

/* ---- convert.c: arguments in, values out ----------------------------------- */

/* A path (str, bytes, os.PathLike) or None: *(PyObject **)p gets a bytes
 * object (a new reference) or NULL.  For "O&". */
int opt_path_conv(PyObject *o, void *p);
const char *bytes_or_null(PyObject *b);
/* The arguments (PATH, sysfs_root=None) of a question to the sysfs at that
 * root (FORMAT "O&|O&:NAME", KWLIST the two names): *PATH gets PATH as
 * bytes (a new reference), and a context of that root is returned, its
 * messages captured afresh; NULL with an exception (*PATH NULL). */
struct modalias_ctx *sysfs_path_args(PyObject *args, PyObject *kwargs, const char *format,
				     const char *const kwlist[], PyObject **path);
/* *out: a copy in C memory (free(3) it) of a string argument, for use with
 * the GIL released; NULL stays NULL.  -1 with MemoryError. */
int cstr_dup(const char *s, char **out);
/* The one str argument of a method (format "s:NAME"), copied into C
 * memory (free(3) it); NULL with an exception. */
char *str_arg_dup(PyObject *args, const char *format);
/* The UTF-8 text of a str, or NULL with InputError (nul_msg) when it holds
 * a NUL character. */
const char *str_no_nul(PyObject *str, const char *nul_msg);
/* An alias argument: a str without NUL characters (TypeError, InputError). */
const char *alias_arg(PyObject *o);
/* An int field value: *u, and its text as a modalias writes numbers (hex);
 * -1 with OverflowError or TypeError. */
int uint_field(PyObject *o, unsigned long long *u, char text[32]);
/* A map type argument: a name ('usb', ...), a MAP_* number, or None (-1);
 * -1 with InputError or TypeError. */
int map_type_arg(PyObject *o, int *type);
/* Appends str(s) to a list; -1 with an exception. */
int list_append_str(PyObject *l, const char *s);
/* A string of the library that names something of sysfs (a driver, a
 * module, a kernel release) as the file system gives it: decoded as walk.c
 * decodes devpaths (PyUnicode_DecodeFSDefault(): bytes that are not UTF-8
 * become surrogates), or None for NULL.  NULL with an exception. */
PyObject *str_or_none(const char *s);

/* A NULL-terminated array of paths from None (NULL: the system's), one
 * path, or an iterable of paths (possibly empty: none). */
struct path_list {
	PyObject *bytes; /* list of bytes objects, or NULL */
	const char **v;  /* NULL for None */
};
int path_list_init(struct path_list *pl, PyObject *o);
void path_list_clear(struct path_list *pl);

/* The aliases of one resolve_many(), copied into C memory before the first
 * lookup: the GIL is released for each lookup, and meanwhile another
 * thread may empty the list, shrink it, or replace its strings (freeing
 * them).  The call resolves the aliases the iterable held when it began. */
struct alias_batch {
	char *text;    /* the aliases, each NUL-terminated, one after another */
	size_t *start; /* where each begins in text */
	Py_ssize_t n;
};
int alias_batch_init(struct alias_batch *b, PyObject *iterable);
void alias_batch_clear(struct alias_batch *b);

/* ---- handle.c: the C object a Table, a Map, a Loader or a Snapshot holds ---- */

struct handle_kind {
	const char *name;              /* "Table": "operation on a closed Table" */
	void (*unref)(void *ptr);      /* drops the one C reference */
};

/* The head of TableObject, MapObject, LoaderObject and SnapshotObject. */
typedef struct {
	PyObject_HEAD
	void *ptr; /* the C object (one reference); NULL once closed */
	const struct handle_kind *kind;
} HandleObject;

/* 0 when open, else -1 with ValueError "operation on a closed ...". */
int handle_check(HandleObject *self);
/* Drops the C reference (close(), deallocation); calls in flight hold
 * their own. */
void handle_release(HandleObject *self);
/* close(), __enter__, __exit__ and the closed attribute, for the method
 * and getset tables of the four types. */
PyObject *handle_close(PyObject *self, PyObject *unused);
PyObject *handle_enter(PyObject *self, PyObject *unused);
PyObject *handle_exit(PyObject *self, PyObject *args);
PyObject *handle_get_closed(PyObject *self, void *closure);
#define HANDLE_CLOSED_GETSET { "closed", handle_get_closed, NULL, "Whether close() was called.", NULL }
/* close() (its docstring: close_doc), __enter__ and __exit__ of a WHAT */
#define HANDLE_METHODS(what, close_doc)                                        \
	{ "close", handle_close, METH_NOARGS, close_doc },                    \
	{ "__enter__", handle_enter, METH_NOARGS, "Returns the " what "." }, \
	{ "__exit__", handle_exit, METH_VARARGS, "Closes the " what "." }

/* ---- device.c: Device and its fields view ---------------------------------- */

typedef struct {
	PyObject_HEAD
	struct modalias_dev *dev;
} DeviceObject;

extern PyTypeObject DeviceType;
extern PyTypeObject FieldsType; /* a dict, not in the module's namespace */

/* A Device of type owning dev (unref'd on failure). */
PyObject *device_wrap(PyTypeObject *type, struct modalias_dev *dev);
/* A new device of a bus and its fields from keyword arguments. */
struct modalias_dev *device_new_kwargs(const char *bus, PyObject *kwargs);
PyObject *device_format(struct modalias_dev *dev);
/* Device.parse(), from_env(), from_sysfs(), and the module's functions */
PyObject *device_parse(PyTypeObject *type, PyObject *args);
PyObject *device_from_env(PyTypeObject *type, PyObject *args, PyObject *kwargs);
PyObject *device_from_sysfs(PyTypeObject *type, PyObject *args, PyObject *kwargs);

/* ---- table.c, resolve.c: Table and the Module records ---------------------- */

typedef struct {
	HandleObject h;        /* h.ptr: struct modalias_table * */
	pthread_rwlock_t lock; /* read: lookups; write: changes */
	int skipped;
} TableObject;

extern PyTypeObject TableType;
extern PyTypeObject *ModuleType;
extern PyStructSequence_Desc module_desc;

/* A C reference to the open table (GIL held), or NULL with ValueError. */
struct modalias_table *table_get(TableObject *self);
void table_put(struct modalias_table *t);
/* Table.resolve(), Table.resolve_many() (resolve.c) */
PyObject *Table_resolve(TableObject *self, PyObject *arg);
PyObject *Table_resolve_many(TableObject *self, PyObject *arg);

/* ---- map.c: Map and its MapEntry rows -------------------------------------- */

typedef struct {
	HandleObject h; /* h.ptr: struct modalias_map * */
	int skipped;    /* bad rows, when read */
	int no_alias;   /* rows of which the last to_aliases() made no alias */
} MapObject;

extern PyTypeObject MapType;
extern PyTypeObject *MapEntryType;
extern PyStructSequence_Desc map_entry_desc;


/* ---- loader.c: Loader and its LoadRecord records ---------------------------- */

extern PyTypeObject LoaderType;
extern PyTypeObject *LoadRecordType;
extern PyStructSequence_Desc load_record_desc;


/* ---- walk.c: walk_sysfs() and its SysfsEntry records ------------------------ */

extern PyTypeObject *SysfsEntryType;
extern PyStructSequence_Desc sysfs_entry_desc;

/* What a walk collects: its SysfsEntry records, in order. */
struct sysfs_walk {
	PyObject *list; /* a list the caller made */
	int failed;     /* 1: an exception is set (the walk was stopped) */
};
/* A modalias_sysfs_fn (data: a struct sysfs_walk) that appends the
 * SysfsEntry of one device; for modalias_sysfs_foreach() and
 * modalias_snapshot_foreach(), with the GIL held. */
int sysfs_entry_append(void *data, const char *devpath, struct modalias_dev *dev, int err);

PyObject *mod_walk_sysfs(PyObject *self, PyObject *args, PyObject *kwargs);

/* ---- snapshot.c: Snapshot, and the same questions asked of a live sysfs ----- */

extern PyTypeObject SnapshotType;

/* sysfs_driver(devpath, sysfs_root=None), sysfs_module_loaded(name, sysfs_root=None) */
PyObject *mod_sysfs_driver(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *mod_sysfs_module_loaded(PyObject *self, PyObject *args, PyObject *kwargs);
/* sysfs_devpath(path, sysfs_root=None) */
PyObject *mod_sysfs_devpath(PyObject *self, PyObject *args, PyObject *kwargs);

#endif
