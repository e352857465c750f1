/*
 * errors.c: the C library's messages and the exceptions they become.
 *
 * Holds the per-thread capture of what libmodalias logs (the log function
 * of every context the bindings make, new_ctx()), the exception objects,
 * and the one translation of a negative errno into an exception
 * (raise_errno()).  It may not parse arguments or know any Python type of the module: the
 * other files call in, it calls nothing of theirs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "shown.h"

PyObject *Error;
PyObject *InputError;
PyObject *NotFoundError;
PyObject *AccessError;
PyObject *UnsupportedError;
PyObject *ParseWarning;

/* ---- messages of the C library, per thread -------------------------------- */

#define LOG_CAP 2048

struct log_capture {
	char text[LOG_CAP]; /* messages of the current call, "; "-separated */
	size_t len;
	unsigned int count;
};

static _Thread_local struct log_capture tls_log;

void log_reset(void)
{
	tls_log.len = 0;
	tls_log.text[0] = '\0';
	tls_log.count = 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void capture_log(void *data, int priority, const char *file, int line, const char *fn,
			const char *format, va_list args)
{
	char raw[1024], msg[SHOWN_MAX(sizeof(raw))];
	size_t n;

	vsnprintf(raw, sizeof(raw), format, args);
	n = strlen(raw);
	while (n > 0 && (raw[n - 1] == '\n' || raw[n - 1] == ' '))
		raw[--n] = '\0';
	/* it quotes files and sysfs: escaped as the default log escapes, in
	 * an exception's text too (valid UTF-8, no escape sequence) */
	n = shown_quote(msg, raw);
	if (priority > LOG_WARNING) {
		/* asked for with MODALIAS_LOG: printed, as the default log function does */
		fprintf(stderr, "libmodalias: %s\n", msg);
		return;
	}
	if (tls_log.count++ > 0 && tls_log.len + 2 < LOG_CAP) {
		memcpy(tls_log.text + tls_log.len, "; ", 3);
		tls_log.len += 2;
	}
	if (tls_log.len < LOG_CAP - 1) {
		size_t room = LOG_CAP - 1 - tls_log.len;
		if (n > room)
			n = room;
		memcpy(tls_log.text + tls_log.len, msg, n);
		tls_log.len += n;
		tls_log.text[tls_log.len] = '\0';
	}
}
#pragma GCC diagnostic pop
PyObject *raise_errno(int err, enum err_kind kind, const char *filename)
{
	int e = err < 0 ? -err : err;
	PyObject *type = Error, *exc;
	const char *msg;

	if (e == ENOMEM)
		return PyErr_NoMemory();
	if (e == EINVAL || e == ERANGE || e == EDOM || (kind == KIND_INPUT && (e == ENOENT || e == ENAMETOOLONG)) ||
	    (kind == KIND_DOC && (e == EBADMSG || e == EPROTONOSUPPORT)))
		type = InputError;
	else if (e == ENOENT)
		type = NotFoundError;
	else if (e == EACCES || e == EPERM)
		type = AccessError;
	else if (e == EOPNOTSUPP)
		type = UnsupportedError;
	msg = tls_log.count ? tls_log.text : strerror(e);
	if (filename)
		exc = PyObject_CallFunction(type, "iss", e, msg, filename);
	else
		exc = PyObject_CallFunction(type, "is", e, msg);
	if (exc) {
		PyErr_SetObject(type, exc);
		Py_DECREF(exc);
	}
	log_reset();
	return NULL;
}

void raise_unknown_field(int r)
{
	PyObject *msg = tls_log.count ? PyUnicode_FromString(tls_log.text) : PyUnicode_FromString(strerror(-r));

	if (msg) {
		PyErr_SetObject(PyExc_KeyError, msg);
		Py_DECREF(msg);
	}
	log_reset();
}

/* A ParseWarning "WHAT: COUNT THINGS" when COUNT > 0, with the messages
 * the library logged meanwhile; the log emptied either way */
static int warn_count(int count, const char *what, const char *things)
{
	int r = 0;

	if (count > 0)
		r = PyErr_WarnFormat(ParseWarning, 2, "%s: %d %s%s%s", what, count, things, tls_log.count ? ": " : "",
				     tls_log.count ? tls_log.text : "");
	log_reset();
	return r;
}

int warn_skipped(int skipped, const char *what)
{
	return warn_count(skipped, what, "malformed line(s) skipped");
}

int warn_no_alias(int count, const char *what)
{
	return warn_count(count, what, "row(s) give no alias");
}

PyObject *none_or_raise(int rc, int r, enum err_kind kind)
{
	if (rc < 0)
		return NULL;
	if (r < 0)
		return raise_errno(r, kind, NULL);
	log_reset();
	Py_RETURN_NONE;
}

PyObject *raise_closed(const char *what)
{
	PyErr_Format(PyExc_ValueError, "operation on a closed %s", what);
	return NULL;
}

struct modalias_ctx *new_ctx(const char *sysfs_root)
{
	struct modalias_ctx *ctx = NULL;
	int r = modalias_ctx_new(&ctx);

	if (r < 0) {
		raise_errno(r, KIND_IO, NULL);
		return NULL;
	}
	modalias_ctx_set_log_fn(ctx, capture_log, NULL);
	if (sysfs_root) {
		r = modalias_ctx_set_sysfs_root(ctx, sysfs_root);
		if (r < 0) {
			modalias_ctx_unref(ctx);
			raise_errno(r, KIND_INPUT, sysfs_root);
			return NULL;
		}
	}
	return ctx;
}

/* ---- the exceptions ---------------------------------------------------------- */

static PyObject *new_exception(PyObject *m, const char *name, const char *doc, PyObject *bases)
{
	char full[64];
	PyObject *e;

	snprintf(full, sizeof(full), "modalias.%s", name);
	e = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
	Py_XDECREF(bases);
	if (!e)
		return NULL;
	Py_INCREF(e);
	if (PyModule_AddObject(m, name, e) < 0) {
		Py_DECREF(e);
		Py_DECREF(e);
		return NULL;
	}
	return e;
}

int errors_add_exceptions(PyObject *m)
{
	Error = new_exception(m, "Error",
			      "A failure of libmodalias: an OSError whose errno is the C library's and whose\n"
			      "strerror is the message it logged.", Py_BuildValue("(O)", PyExc_OSError));
	if (!Error)
		return -1;
	InputError = new_exception(m, "InputError",
				   "Bad input: a malformed modalias, an unknown bus or field, a bad value or line.",
				   Py_BuildValue("(OO)", Error, PyExc_ValueError));
	NotFoundError = new_exception(m, "NotFoundError", "A file, directory or device that does not exist.",
				      Py_BuildValue("(OO)", Error, PyExc_FileNotFoundError));
	AccessError = new_exception(m, "AccessError", "Permission denied.",
				    Py_BuildValue("(OO)", Error, PyExc_PermissionError));
	UnsupportedError = new_exception(m, "UnsupportedError", "Not available here (libkmod could not be loaded).",
					 Py_BuildValue("(O)", Error));
	ParseWarning = new_exception(m, "ParseWarning",
				     "Malformed lines or rows were skipped while reading a file, or map rows gave no alias.",
				     Py_BuildValue("(O)", PyExc_UserWarning));
	if (!InputError || !NotFoundError || !AccessError || !UnsupportedError || !ParseWarning)
		return -1;
	return 0;
}
