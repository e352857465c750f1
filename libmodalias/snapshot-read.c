/*
 * libmodalias - the snapshot reader: a snapshot document (JSON, version 1;
 * see modalias_snapshot_new_from_file()) parsed into a snapshot.
 *
 * A small recursive-descent JSON parser that knows the document's shape:
 * an object with "version" (1), "kernel", "arch", "devices" (objects with
 * "devpath", "subsystem", "modalias", "driver", "driver_module",
 * "driver_override", "errno", "error"), "modules", "builtin" and
 * "builtin_drivers" (strings; the last two absent from a document written
 * before they were: built-in modules unknown) and, when the kernel log
 * was read, "firmware_failures" (objects with
 * "devpath", "file", "errno", of either sign); members it does not know are skipped, so
 * later minor additions read.  Every error
 * names the file, line and column.  Nesting is bounded (JSON_DEPTH_MAX), a
 * string may not hold a NUL (\u0000), and "\u0080" … "\u00ff" are the bytes
 * of those values (shared/json.h's convention), so that what the writer
 * wrote comes back byte for byte.
 *
 * This file reads the file (bounded: read_file()) and parses it, building
 * through snapshot.c; it may not print.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"
#include "read-file.h"
#include "snapshot-private.h"

#define JSON_DEPTH_MAX 32

struct parser {
	struct modalias_ctx *ctx;
	const char *name;
	const char *p, *start, *end;
	int error; /* the first error: -EBADMSG, -ENOMEM, -EPROTONOSUPPORT */
};

/* Logs "NAME:LINE:COLUMN: what" for the position AT, once */
static void fail_at(struct parser *ps, const char *at, int error, const char *what)
{
	unsigned int line = 1, col = 1;

	if (ps->error)
		return;
	ps->error = error;
	for (const char *c = ps->start; c < at && c < ps->end; c++) {
		if (*c == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (at >= ps->end && error == -EBADMSG)
		err(ps->ctx, "%s:%u:%u: the file ends too early (cut short?): %s\n", ps->name, line, col, what);
	else
		err(ps->ctx, "%s:%u:%u: %s\n", ps->name, line, col, what);
}

static void fail(struct parser *ps, const char *what)
{
	fail_at(ps, ps->p, -EBADMSG, what);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

/* The next significant byte, or 0 at the end */
static char peek(struct parser *ps)
{
	skip_ws(ps);
	return ps->p < ps->end ? *ps->p : '\0';
}

static bool expect(struct parser *ps, char c, const char *what)
{
	if (peek(ps) != c) {
		fail(ps, what);
		return false;
	}
	ps->p++;
	return true;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return false;
	ps->p += n;
	return true;
}

static int hex4(const char *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v = v * 16 + (c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			      c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1000000);
	}
	return v < 0 ? -1 : v;
}

static void put_utf8(struct strbuf *sb, unsigned int cp)
{
	if (cp < 0x80) {
		strbuf_putc(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_putc(sb, (char)(0xc0 | cp >> 6));
		strbuf_putc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_putc(sb, (char)(0xe0 | cp >> 12));
		strbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_putc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_putc(sb, (char)(0xf0 | cp >> 18));
		strbuf_putc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_putc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

/* A string (the opening quote next); *ret malloc'ed.  With ret NULL the
 * string is only checked. */
static bool string(struct parser *ps, char **ret)
{
	struct strbuf sb;

	if (!expect(ps, '"', "a string expected"))
		return false;
	strbuf_init(&sb);
	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;

		if (c < 0x20) {
			fail(ps, "a control character in a string (escape it)");
			break;
		}
		if (c != '\\') {
			strbuf_putc(&sb, (char)c);
			ps->p++;
			continue;
		}
		if (ps->end - ps->p < 2) {
			fail(ps, "the string does not end");
			break;
		}
		c = (unsigned char)ps->p[1];
		if (c == 'u') {
			int cp = ps->end - ps->p >= 6 ? hex4(ps->p + 2) : -1;

			if (cp < 0) {
				fail(ps, "a unicode escape needs four hex digits");
				break;
			}
			if (cp == 0) {
				fail(ps, "an escaped NUL byte: a string may not hold one");
				break;
			}
			ps->p += 6;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				int lo = ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u' ? hex4(ps->p + 2) : -1;

				if (lo < 0xdc00 || lo > 0xdfff) {
					fail(ps, "a high surrogate without its low one");
					break;
				}
				ps->p += 6;
				put_utf8(&sb, 0x10000u + (((unsigned int)cp - 0xd800) << 10) + ((unsigned int)lo - 0xdc00));
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				fail_at(ps, ps->p - 6, -EBADMSG, "a low surrogate alone");
				break;
			} else if (cp >= 0x80 && cp <= 0xff) {
				strbuf_putc(&sb, (char)cp); /* a byte the writer escaped (json.h) */
			} else {
				put_utf8(&sb, (unsigned int)cp);
			}
			continue;
		}
		{
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *k = c ? strchr(from, c) : NULL;

			if (!k) {
				fail(ps, "an unknown escape in a string");
				break;
			}
			strbuf_putc(&sb, to[k - from]);
			ps->p += 2;
		}
	}
	if (!ps->error && ps->p >= ps->end)
		fail(ps, "the string does not end");
	if (!ps->error && sb.oom)
		fail_at(ps, ps->p, -ENOMEM, "out of memory");
	if (ps->error) {
		strbuf_release(&sb);
		return false;
	}
	ps->p++; /* the closing quote */
	if (!ret) {
		strbuf_release(&sb);
		return true;
	}
	strbuf_putn(&sb, "", 0);
	if (strbuf_steal(&sb, ret) < 0) {
		fail_at(ps, ps->p, -ENOMEM, "out of memory");
		return false;
	}
	return true;
}

/* A string or null; *ret NULL for null */
static bool string_or_null(struct parser *ps, char **ret)
{
	*ret = NULL;
	if (peek(ps) == 'n' && literal(ps, "null"))
		return true;
	return string(ps, ret);
}

/* A JSON integer in [min, max] */
static bool integer(struct parser *ps, long min, long max, long *ret)
{
	const char *at;
	char *end;
	long v;

	skip_ws(ps);
	at = ps->p;
	if (ps->p >= ps->end || !(*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))) {
		fail(ps, "a number expected");
		return false;
	}
	errno = 0;
	v = strtol(ps->p, &end, 10); /* the document ends in a NUL (read_file) */
	if (errno || end > ps->end || v < min || v > max || (end < ps->end && (*end == '.' || *end == 'e' || *end == 'E'))) {
		fail_at(ps, at, -EBADMSG, "a number out of range");
		return false;
	}
	ps->p = end;
	*ret = v;
	return true;
}

/* Any value, skipped (a member this reader does not know) */
static bool skip_value(struct parser *ps, unsigned int depth)
{
	char c = peek(ps);

	if (depth > JSON_DEPTH_MAX) {
		fail(ps, "nested too deep");
		return false;
	}
	if (c == '"')
		return string(ps, NULL);
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';

		ps->p++;
		if (peek(ps) == close) {
			ps->p++;
			return true;
		}
		do {
			if (c == '{' && (!string(ps, NULL) || !expect(ps, ':', "':' expected")))
				return false;
			if (!skip_value(ps, depth + 1))
				return false;
		} while (peek(ps) == ',' && ps->p++);
		return expect(ps, close, c == '{' ? "',' or '}' expected" : "',' or ']' expected");
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		while (ps->p < ps->end && strchr("+-0123456789.eE", *ps->p))
			ps->p++;
		return true;
	}
	if (literal(ps, "true") || literal(ps, "false") || literal(ps, "null"))
		return true;
	fail(ps, "a value expected");
	return false;
}

/* An object whose members go to MEMBER one by one (the key, and the
 * parser at its value); MEMBER returns false on error */
static bool object(struct parser *ps, bool (*member)(struct parser *, const char *key, const char *at, void *),
		   void *data)
{
	if (!expect(ps, '{', "an object expected"))
		return false;
	if (peek(ps) == '}') {
		ps->p++;
		return true;
	}
	do {
		char *key = NULL;
		const char *at;
		bool ok;

		skip_ws(ps);
		at = ps->p;
		if (!string(ps, &key))
			return false;
		ok = expect(ps, ':', "':' expected") && member(ps, key, at, data);
		free(key);
		if (!ok)
			return false;
	} while (peek(ps) == ',' && ps->p++);
	return expect(ps, '}', "',' or '}' expected");
}

struct device_read {
	struct snap_device d;
	bool has_modalias;
};

static bool device_member(struct parser *ps, const char *key, const char *at, void *data)
{
	struct device_read *dr = data;
	struct snap_device *d = &dr->d;
	static const struct {
		const char *key;
		size_t offset;
	} strings[] = {
		{ "devpath", offsetof(struct snap_device, devpath) },
		{ "subsystem", offsetof(struct snap_device, subsystem) },
		{ "modalias", offsetof(struct snap_device, modalias) },
		{ "driver", offsetof(struct snap_device, driver) },
		{ "driver_module", offsetof(struct snap_device, driver_module) },
		{ "driver_override", offsetof(struct snap_device, driver_override) },
	};
	long v;

	for (size_t i = 0; i < ARRAY_SIZE(strings); i++) {
		char **field = (char **)((char *)d + strings[i].offset);

		if (strcmp(key, strings[i].key) != 0)
			continue;
		if (*field) {
			fail_at(ps, at, -EBADMSG, "a member given twice");
			return false;
		}
		if (strcmp(key, "modalias") == 0)
			dr->has_modalias = true;
		return string_or_null(ps, field);
	}
	if (strcmp(key, "errno") == 0) {
		if (!integer(ps, 1, 4095, &v))
			return false;
		d->err = (int)v;
		return true;
	}
	return skip_value(ps, 1);
}

static bool one_device(struct parser *ps, struct modalias_snapshot *snap)
{
	struct device_read dr = { { NULL } };
	struct modalias_dev *dev = NULL;
	const char *at;
	int r;

	skip_ws(ps);
	at = ps->p;
	if (!object(ps, device_member, &dr)) {
		snap_device_clear(&dr.d);
		return false;
	}
	if (!dr.d.devpath || strncmp(dr.d.devpath, "/devices/", 9) != 0 || !devpath_is_safe(dr.d.devpath))
		fail_at(ps, at, -EBADMSG, dr.d.devpath ? "the devpath is not a path below /devices" : "a device without its devpath");
	else if (!dr.d.err && !dr.d.modalias)
		fail_at(ps, at, -EBADMSG, "a device without a modalias (nor an errno saying why)");
	else if (dr.d.err && dr.d.modalias)
		fail_at(ps, at, -EBADMSG, "a device with both a modalias and an errno");
	else if (dr.d.modalias && (r = modalias_parse(snap->ctx, dr.d.modalias, &dev)) < 0)
		fail_at(ps, at, r == -ENOMEM ? -ENOMEM : -EBADMSG, "the modalias does not parse");
	modalias_dev_unref(dev);
	if (ps->error) {
		snap_device_clear(&dr.d);
		return false;
	}
	if (snapshot_add_device(snap, &dr.d) < 0) {
		fail_at(ps, at, -ENOMEM, "out of memory");
		return false;
	}
	return true;
}

/* An array whose elements go to ELEMENT one by one */
static bool array(struct parser *ps, bool (*element)(struct parser *, struct modalias_snapshot *),
		  struct modalias_snapshot *snap)
{
	if (!expect(ps, '[', "an array expected"))
		return false;
	if (peek(ps) == ']') {
		ps->p++;
		return true;
	}
	do {
		if (!element(ps, snap))
			return false;
	} while (peek(ps) == ',' && ps->p++);
	return expect(ps, ']', "',' or ']' expected");
}

/* A module's name (of "modules" or "builtin") into SET */
static bool one_name(struct parser *ps, struct snap_names *set)
{
	const char *at, *why = NULL;
	char *name = NULL;

	skip_ws(ps);
	at = ps->p;
	if (!string(ps, &name))
		return false;
	if (module_name_check(name, strlen(name), &why) < 0) {
		fail_at(ps, at, -EBADMSG, "not a module name");
		free(name);
		return false;
	}
	if (snapshot_add_name(set, name) < 0) {
		fail_at(ps, at, -ENOMEM, "out of memory");
		return false;
	}
	return true;
}

static bool one_module(struct parser *ps, struct modalias_snapshot *snap)
{
	return one_name(ps, &snap->modules);
}

static bool one_builtin(struct parser *ps, struct modalias_snapshot *snap)
{
	return one_name(ps, &snap->builtin_modules);
}

static bool one_builtin_driver(struct parser *ps, struct modalias_snapshot *snap)
{
	return one_name(ps, &snap->builtin_drivers);
}

struct failure_read {
	char *devpath, *file;
	long err;
	bool has_devpath;
};

static bool failure_member(struct parser *ps, const char *key, const char *at, void *data)
{
	struct failure_read *fr = data;

	if (strcmp(key, "devpath") == 0 || strcmp(key, "file") == 0) {
		char **field = key[0] == 'd' ? &fr->devpath : &fr->file;

		if (*field || (key[0] == 'd' && fr->has_devpath)) {
			fail_at(ps, at, -EBADMSG, "a member given twice");
			return false;
		}
		fr->has_devpath |= key[0] == 'd';
		return string_or_null(ps, field);
	}
	if (strcmp(key, "errno") == 0) {
		const char *value;

		/* either sign: the writer's positive one, or as the kernel
		 * log writes it ("error -2"), the same number */
		skip_ws(ps);
		value = ps->p;
		if (!integer(ps, -4095, 4095, &fr->err))
			return false;
		if (!fr->err) {
			fail_at(ps, value, -EBADMSG, "a number out of range");
			return false;
		}
		fr->err = labs(fr->err);
		return true;
	}
	return skip_value(ps, 1);
}

/* {"devpath": "/devices/…" or null, "file": "…", "errno": N} (N or -N) */
static bool one_failure(struct parser *ps, struct modalias_snapshot *snap)
{
	struct failure_read fr = { NULL };
	const char *at;

	skip_ws(ps);
	at = ps->p;
	if (object(ps, failure_member, &fr)) {
		int r;

		if (!fr.file || !*fr.file || !fr.err)
			fail_at(ps, at, -EBADMSG, "a firmware failure needs its \"file\" and \"errno\"");
		else if ((r = modalias_snapshot_add_firmware_failure(snap, fr.devpath, fr.file, (int)-fr.err)) < 0)
			fail_at(ps, at, r == -ENOMEM ? -ENOMEM : -EBADMSG,
				r == -ENOMEM ? "out of memory" : "the devpath is not a path below /devices");
	}
	free(fr.devpath);
	free(fr.file);
	return !ps->error;
}

struct top_read {
	struct modalias_snapshot *snap;
	bool version, devices, failures, modules, builtin, builtin_drivers;
};

/* A member of the document read once: *GIVEN set, or an error at AT */
static bool once(struct parser *ps, const char *at, bool *given)
{
	if (*given) {
		fail_at(ps, at, -EBADMSG, "a member given twice");
		return false;
	}
	*given = true;
	return true;
}

static bool top_member(struct parser *ps, const char *key, const char *at, void *data)
{
	struct top_read *tr = data;
	long v;

	if (strcmp(key, "version") == 0) {
		skip_ws(ps);
		at = ps->p;
		if (!integer(ps, 0, 1000000, &v))
			return false;
		if (v != SNAPSHOT_VERSION) {
			fail_at(ps, at, -EPROTONOSUPPORT, "a snapshot version this reader does not know (it reads 1)");
			return false;
		}
		tr->version = true;
		return true;
	}
	if (strcmp(key, "kernel") == 0 || strcmp(key, "arch") == 0) {
		char **field = key[0] == 'k' ? &tr->snap->kernel : &tr->snap->arch;

		if (*field) {
			fail_at(ps, at, -EBADMSG, "a member given twice");
			return false;
		}
		return string_or_null(ps, field);
	}
	if (strcmp(key, "devices") == 0)
		return once(ps, at, &tr->devices) && array(ps, one_device, tr->snap);
	if (strcmp(key, "modules") == 0) {
		tr->snap->modules_known = true;
		return once(ps, at, &tr->modules) && array(ps, one_module, tr->snap);
	}
	if (strcmp(key, "builtin") == 0 || strcmp(key, "builtin_drivers") == 0) {
		bool drivers = strcmp(key, "builtin_drivers") == 0;

		if (!once(ps, at, drivers ? &tr->builtin_drivers : &tr->builtin))
			return false;
		tr->snap->builtins_known = true; /* written together: either says they are known */
		return array(ps, drivers ? one_builtin_driver : one_builtin, tr->snap);
	}
	if (strcmp(key, "firmware_failures") == 0) {
		if (!once(ps, at, &tr->failures))
			return false;
		if (peek(ps) == 'n' && literal(ps, "null")) /* the kernel log not read */
			return true;
		tr->snap->kernel_log = true;
		return array(ps, one_failure, tr->snap);
	}
	return skip_value(ps, 1);
}

int snapshot_parse(struct modalias_ctx *ctx, const char *name, const char *text, size_t len,
		   struct modalias_snapshot **ret)
{
	struct parser ps = { .ctx = ctx, .name = name, .p = text, .start = text, .end = text + len };
	struct top_read tr = { .snap = snapshot_alloc(ctx) };
	const char *twice, *member;

	if (!tr.snap)
		return -ENOMEM;
	/* the reader stops at the first NUL, which a JSON text never holds */
	if (memchr(text, '\0', len))
		fail_at(&ps, memchr(text, '\0', len), -EBADMSG, "a NUL byte in the file");
	else if (object(&ps, top_member, &tr) && peek(&ps) != '\0')
		fail(&ps, "more after the document");
	if (!ps.error && !tr.version)
		fail_at(&ps, text, -EBADMSG, "no \"version\": not a snapshot");
	if (!ps.error && !tr.devices)
		fail_at(&ps, text, -EBADMSG, "no \"devices\": not a snapshot");
	if (!ps.error && (twice = snapshot_finish(tr.snap, &member))) {
		err(ctx, "%s: '%.*s' is listed twice in \"%s\"\n", name, LOG_ECHO(twice), member);
		ps.error = -EBADMSG;
	}
	if (ps.error) {
		modalias_snapshot_unref(tr.snap);
		return ps.error;
	}
	*ret = tr.snap;
	return 0;
}

MODALIAS_EXPORT int modalias_snapshot_new_from_file(struct modalias_ctx *ctx, const char *path,
						    struct modalias_snapshot **ret)
{
	char *text = NULL;
	size_t len;
	int r;

	if (!ctx || !path || !ret)
		return -EINVAL;
	r = read_file(path, READ_FILE_SNAPSHOT_MAX, READ_FILE_NO_KERNEL_FS, &text, &len);
	if (r < 0) {
		char why[64];
		const char *reason = read_file_error(r, READ_FILE_SNAPSHOT_MAX, why, sizeof(why));

		err(ctx, "cannot read %s: %s\n", path, reason);
		return r;
	}
	r = snapshot_parse(ctx, path, text, len, ret);
	free(text);
	return r;
}
