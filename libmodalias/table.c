/*
 * libmodalias - alias tables: the table object, and what fills it — a
 * module directory (modules.alias, the builtin aliases, the module order,
 * module names, symbols), modprobe.d through libkmod, patterns added one by
 * one — each line into the layer of kmod's source it belongs to; and what
 * a module name is.
 *
 * It adds to a table and asks index.c to index it; it may not read or
 * write an index cache (cache.c maps tables; a mapped table is made ours
 * by table_own() before it changes) nor look anything up (lookup.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "kmod-dl.h"
#include "libmodalias-private.h"
#include "maps-private.h"
#include "read-file.h"
#include "table-private.h"

/* ---- modules ------------------------------------------------------------ */

/*
 * What libkmod takes as a module name, checked before any libkmod call.
 * kmod_module_new_from_name() normalises a name the way the kernel does
 * ('-' becomes '_', and the name ends at the first '.') into a PATH_MAX
 * buffer, silently cut at PATH_MAX - 1 bytes, and then builds paths such
 * as /sys/module/NAME/initstate in PATH_MAX buffers:
 * kmod_module_get_initstate() of libkmod 30 and older writes past its
 * buffer for a name of PATH_MAX - 12 bytes or more (fixed in kmod 31).
 * A module is the file NAME.ko and the directory /sys/module/NAME, so a
 * name is one path component: at most NAME_MAX bytes, no '/', no control
 * character (it is written to logs), and not empty once normalised.
 */
int module_name_check(const char *name, size_t len, const char **why)
{
	len = strnlen(name, len < NAME_MAX + 1 ? len : NAME_MAX + 1);
	*why = NULL;
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (len == 0 || name[0] == '.') {
		*why = "empty (kmod's names end at the first '.')";
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i++) {
		if (name[i] == '/') {
			*why = "it has a '/'";
			return -EINVAL;
		}
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) {
			*why = "it has a control character";
			return -EINVAL;
		}
	}
	return 0;
}


static void modname_normalize(const char *in, size_t len, char *out, size_t *out_len)
{
	size_t i;

	for (i = 0; i < len && in[i] != '.'; i++)
		out[i] = in[i] == '-' ? '_' : in[i];
	out[i] = '\0';
	*out_len = i;
}

/* The id of a module, added when new; -ENAMETOOLONG/-EINVAL (why set) for
 * what is not a module name (module_name_check()). */
static int module_id(struct modalias_table *t, const char *name, size_t len, uint32_t *id, const char **why)
{
	char norm[NAME_MAX + 1];
	size_t nlen;
	uint32_t v, key = 0;
	int r;

	r = module_name_check(name, len, why);
	if (r < 0)
		return r;
	modname_normalize(name, len, norm, &nlen);
	v = t->n_modules;
	r = hashtab_add(&t->module_ids, &t->pool, norm, nlen, &v, &key);
	if (r < 0)
		return r;
	if (r == 0) {
		if (t->n_modules == t->cap_modules) {
			unsigned int cap = t->cap_modules ? t->cap_modules * 2 : 512;
			struct module *n = realloc(t->modules, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			t->modules = n;
			t->cap_modules = cap;
		}
		/* whole, padding included: the array is written to the cache as is */
		memset(&t->modules[v], 0, sizeof(t->modules[v]));
		t->modules[v].name = key;
		t->modules[v].prio = UINT32_MAX;
		t->modules[v].seen = t->n_modules;
		t->modules[v].builtin = false;
		t->n_modules++;
	}
	*id = v;
	return 0;
}

/* ---- layers --------------------------------------------------------------- */

static int layer_add(struct modalias_table *t, enum layer_id l, const char *pattern,
		     size_t len, uint32_t module, uint32_t origin, uint32_t line)
{
	struct layer *ly = &t->layers[l];
	struct pattern *p;

	if (ly->n == ly->cap) {
		unsigned int cap = ly->cap ? ly->cap * 2 : 1024;
		struct pattern *n = realloc(ly->patterns, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		ly->patterns = n;
		ly->cap = cap;
	}
	p = &ly->patterns[ly->n];
	p->str = strpool_add(&t->pool, pattern, len);
	p->module = module;
	p->where = WHERE(origin, line);
	if (t->pool.oom)
		return -ENOMEM;
	ly->n++;
	ly->dirty = true;
	return 0;
}

static uint32_t origin_add(struct modalias_table *t, const char *name)
{
	uint32_t off = strpool_add(&t->pool, name, strlen(name));
	uint32_t *n;

	if (t->pool.oom)
		return 0;
	n = realloc(t->origins, (t->n_origins + 1) * sizeof(*n));
	if (!n)
		return 0;
	t->origins = n;
	t->origins[t->n_origins] = off;
	return t->n_origins++;
}

/* Adds pattern → module to a layer, normalised; logs a bad module name or
 * pattern with where it came from.  The module name is checked first: in
 * modules.dep, modules.builtin and a blacklist line the pattern is the
 * module name, and a name such as "evil\x1b[31m" is not a module name, not
 * a pattern with an unbalanced bracket. */
static int add_pattern(struct modalias_table *t, enum layer_id l, const char *pattern,
		       size_t plen, const char *module, size_t mlen, uint32_t origin, uint32_t line)
{
	char stackbuf[512], *norm = NULL;
	const char *why = NULL;
	uint32_t mod;
	size_t nlen;
	int r;

	r = module_name_check(module, mlen, &why);
	if (r < 0)
		goto bad_module;
	norm = plen < sizeof(stackbuf) ? stackbuf : malloc(plen + 1);
	if (!norm)
		return -ENOMEM;
	r = alias_normalize(pattern, plen, norm, &nlen);
	if (r < 0) {
		err(t->ctx, "%s:%u: unbalanced brackets in pattern '%.*s'\n",
		    table_origin_name(t, origin), line, LOG_ECHO_LEN(pattern, plen));
		goto out;
	}
	r = module_id(t, module, mlen, &mod, &why);
	if (r < 0)
		goto bad_module;
	if (l == LAYER_BUILTIN_ALIAS || l == LAYER_BUILTIN_NAME)
		t->modules[mod].builtin = true;
	r = layer_add(t, l, norm, nlen, mod, origin, line);
	goto out;
bad_module:
	if (r == -ENAMETOOLONG)
		why = "longer than " STRINGIFY(NAME_MAX) " bytes";
	if (line)
		err(t->ctx, "%s:%u: bad module name '%.*s': %s\n", table_origin_name(t, origin), line,
		    LOG_ECHO_LEN(module, mlen), why ? why : strerror(-r));
	else
		err(t->ctx, "%s: bad module name '%.*s': %s\n", table_origin_name(t, origin),
		    LOG_ECHO_LEN(module, mlen), why ? why : strerror(-r));
	r = -EINVAL;
out:
	if (norm != stackbuf)
		free(norm);
	return r;
}

/* ---- the table object ----------------------------------------------------- */

MODALIAS_EXPORT int modalias_table_new(struct modalias_ctx *ctx, struct modalias_table **ret)
{
	struct modalias_table *t;

	if (!ctx || !ret)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->refcount = 1;
	t->ctx = modalias_ctx_ref(ctx);
	/* offset 0 of the pool is the empty string */
	strpool_add(&t->pool, "", 0);
	origin_add(t, "(added)");
	if (t->pool.oom) {
		modalias_table_unref(t);
		return -ENOMEM;
	}
	*ret = t;
	return 0;
}

MODALIAS_EXPORT struct modalias_table *modalias_table_ref(struct modalias_table *t)
{
	if (t)
		REF_INC(t->refcount);
	return t;
}

MODALIAS_EXPORT struct modalias_table *modalias_table_unref(struct modalias_table *t)
{
	if (!t)
		return NULL;
	if (REF_DEC(t->refcount) > 0)
		return t;
	table_arrays_release(t);
	weakdeps_free(t->weakdeps);
	modalias_ctx_unref(t->ctx);
	free(t);
	return NULL;
}

MODALIAS_EXPORT int modalias_table_add(struct modalias_table *t, const char *pattern,
				       const char *module)
{
	int r;

	if (!t || !pattern || !module || !*pattern || !*module)
		return -EINVAL;
	if ((r = table_own(t)) < 0)
		return r;
	return add_pattern(t, LAYER_ALIAS, pattern, strlen(pattern), module, strlen(module), 0, 0);
}

/* For maps.c: a map file's rows become modules.alias patterns. */
int table_origin_register(struct modalias_table *t, const char *name, uint32_t *origin)
{
	int r = table_own(t);

	if (r < 0)
		return r;
	*origin = origin_add(t, name);
	return t->pool.oom ? -ENOMEM : 0;
}

int table_add_alias(struct modalias_table *t, const char *pattern, const char *module,
		    uint32_t origin, uint32_t line)
{
	return add_pattern(t, LAYER_ALIAS, pattern, strlen(pattern), module, strlen(module), origin,
			   line);
}

/* ---- text files ------------------------------------------------------------ */

struct line_iter {
	const char *p, *end;
	uint32_t line;
};

/* Next line (without its newline); false at the end. */
static bool next_line(struct line_iter *it, const char **s, size_t *len)
{
	const char *nl;

	if (it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	*s = it->p;
	*len = (size_t)((nl ? nl : it->end) - it->p);
	it->p = nl ? nl + 1 : it->end;
	it->line++;
	return true;
}

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

static const char *token_end(const char *s, const char *end)
{
	while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
		s++;
	return s;
}

static const char *rskip_ws(const char *start, const char *s)
{
	while (s > start && (s[-1] == ' ' || s[-1] == '\t' || s[-1] == '\r'))
		s--;
	return s;
}

/* "alias PATTERN MODULE" lines (modules.alias, modules.symbols, or a file
 * of the same form); comments and blank lines are skipped.  Returns the
 * number of rejected lines.
 *
 * depmod writes each line as "alias %s %s\n" with the module's alias as the
 * kernel has it, spaces included (arm64's "mt8186_mt6366 soc card"), and
 * keys modules.alias.bin, which kmod reads, on that whole alias: so the
 * module is the last word and the pattern everything between, its inner
 * white space kept (only white space at its ends cannot be told from the
 * separators). */
static int load_alias_text(struct modalias_table *t, enum layer_id layer, const char *name,
			   const char *buf, size_t len)
{
	struct line_iter it = { .p = buf, .end = buf + len };
	uint32_t origin = origin_add(t, name);
	unsigned int bad = 0;
	const char *s;
	size_t n;
	/* a binary file is thousands of bad lines: the first few are named */
	enum { BAD_NAMED = 10 };

	if (t->pool.oom || !strpool_reserve(&t->pool, len))
		return -ENOMEM;
	while (next_line(&it, &s, &n)) {
		const char *end = s + n, *kw, *kw_end, *pat, *pat_end, *mod, *mod_end;
		int r;

		if (memchr(s, '\0', n)) {
			if (bad++ < BAD_NAMED)
				err(t->ctx, "%s:%u: NUL byte in line, line skipped\n", name, it.line);
			continue;
		}
		kw = skip_ws(s, end);
		if (kw == end || *kw == '#')
			continue;
		kw_end = token_end(kw, end);
		if (kw_end - kw != 5 || memcmp(kw, "alias", 5) != 0) {
			if (bad++ < BAD_NAMED)
				err(t->ctx, "%s:%u: expected 'alias PATTERN MODULE', got '%.*s'\n", name,
				    it.line, (int)(kw_end - kw > 40 ? 40 : kw_end - kw), kw);
			continue;
		}
		pat = skip_ws(kw_end, end);
		mod_end = rskip_ws(pat, end);
		mod = mod_end;
		while (mod > pat && mod[-1] != ' ' && mod[-1] != '\t' && mod[-1] != '\r')
			mod--;
		pat_end = rskip_ws(pat, mod);
		if (pat == pat_end) {
			if (bad++ < BAD_NAMED)
				err(t->ctx, "%s:%u: missing %s\n", name, it.line,
				    mod == mod_end ? "pattern and module" : "module name");
			continue;
		}
		r = add_pattern(t, layer, pat, (size_t)(pat_end - pat), mod, (size_t)(mod_end - mod),
				origin, it.line);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			bad++;
	}
	if (bad > BAD_NAMED)
		err(t->ctx, "%s: %u more malformed line%s skipped\n", name, bad - BAD_NAMED,
		    bad - BAD_NAMED == 1 ? "" : "s");
	return (int)bad;
}

MODALIAS_EXPORT int modalias_table_load_buffer(struct modalias_table *t, const char *name,
					       const char *buf, size_t len)
{
	int r;

	if (!t || (!buf && len))
		return -EINVAL;
	if ((r = table_own(t)) < 0)
		return r;
	return load_alias_text(t, LAYER_ALIAS, name ? name : "(buffer)", buf ? buf : "", len);
}

/* A table file, whole and bounded (READ_FILE_TABLE_MAX: documented in
 * libmodalias.h); quiet: a missing file is no error here. */
int table_slurp(struct modalias_table *t, const char *path, char **buf, size_t *len, bool quiet)
{
	int r = read_file(path, READ_FILE_TABLE_MAX, READ_FILE_NO_KERNEL_FS, buf, len);

	if (r < 0 && (!quiet || r != -ENOENT)) {
		char buf_why[64];
		const char *why = read_file_error(r, READ_FILE_TABLE_MAX, buf_why, sizeof(buf_why));

		err(t->ctx, "cannot %s %s: %s\n", r == -EFBIG ? "read" : "open", path, why);
	}
	return r;
}

MODALIAS_EXPORT int modalias_table_load_file(struct modalias_table *t, const char *path)
{
	char *buf;
	size_t len;
	int r;

	if (!t || !path)
		return -EINVAL;
	if ((r = table_own(t)) < 0)
		return r;
	r = table_slurp(t, path, &buf, &len, false);
	if (r < 0)
		return r;
	r = load_alias_text(t, LAYER_ALIAS, path, buf, len);
	free(buf);
	return r;
}

/* modules.order: a module's place in it is its priority */
static int load_order(struct modalias_table *t, const char *buf, size_t len)
{
	struct line_iter it = { .p = buf, .end = buf + len };
	const char *s;
	size_t n;

	while (next_line(&it, &s, &n)) {
		const char *base = s, *end = s + n, *why;
		uint32_t id;
		int r;

		end = token_end(skip_ws(s, end), end);
		for (const char *q = s; q < end; q++)
			if (*q == '/')
				base = q + 1;
		if (base >= end)
			continue;
		r = module_id(t, base, (size_t)(end - base), &id, &why);
		if (r == -ENOMEM)
			return r;
		if (r == 0 && t->modules[id].prio == UINT32_MAX)
			t->modules[id].prio = t->n_ordered++;
	}
	return 0;
}

/* modules.dep and modules.builtin: module names, one per line (a path,
 * then for modules.dep ':' and its dependencies) */
static int load_names(struct modalias_table *t, enum layer_id layer, const char *name,
		      const char *buf, size_t len)
{
	struct line_iter it = { .p = buf, .end = buf + len };
	uint32_t origin = origin_add(t, name);
	const char *s;
	size_t n;

	while (next_line(&it, &s, &n)) {
		const char *end = memchr(s, ':', n), *base = s;
		char norm[256];
		size_t nlen;
		int r;

		if (!end)
			end = s + n;
		for (const char *q = s; q < end; q++)
			if (*q == '/')
				base = q + 1;
		if (base >= end || *s == '#' || (size_t)(end - base) >= sizeof(norm))
			continue;
		modname_normalize(base, (size_t)(end - base), norm, &nlen);
		if (nlen == 0)
			continue;
		r = add_pattern(t, layer, norm, nlen, norm, nlen, origin, it.line);
		if (r == -ENOMEM)
			return r;
	}
	return 0;
}

/* modules.builtin.modinfo: NUL-separated "module.key=value".  Every
 * module it names is built in, whether or not modules.builtin lists it (a
 * bool option's driver, as shpchp since 6.12, is in this file only); its
 * aliases are the builtin aliases. */
static int load_builtin_modinfo(struct modalias_table *t, const char *name, const char *buf,
				size_t len)
{
	uint32_t origin = origin_add(t, name), entry = 0, id;
	const char *p = buf, *end = buf + len, *why;

	while (p < end) {
		const char *e = memchr(p, '\0', (size_t)(end - p)), *dot, *eq;
		int r = 0;

		if (!e)
			e = end;
		entry++;
		dot = memchr(p, '.', (size_t)(e - p));
		eq = dot ? memchr(dot, '=', (size_t)(e - dot)) : NULL;
		if (dot && eq && eq - dot == 6 && memcmp(dot, ".alias", 6) == 0 && eq + 1 < e)
			r = add_pattern(t, LAYER_BUILTIN_ALIAS, eq + 1, (size_t)(e - eq - 1), p,
					(size_t)(dot - p), origin, entry);
		else if (dot && eq && dot > p && (r = module_id(t, p, (size_t)(dot - p), &id, &why)) == 0)
			t->modules[id].builtin = true;
		if (r == -ENOMEM)
			return r;
		p = e + 1;
	}
	return 0;
}

static char *path_join(const char *dir, const char *file)
{
	struct strbuf sb;
	char *s;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/%s", dir, file);
	return strbuf_steal(&sb, &s) < 0 ? NULL : s;
}

static int load_dir_file(struct modalias_table *t, const char *dir, const char *file, bool required)
{
	char *path = path_join(dir, file), *buf = NULL;
	size_t len = 0;
	int r;

	if (!path)
		return -ENOMEM;
	r = table_slurp(t, path, &buf, &len, !required);
	if (r == -ENOENT && !required) {
		info(t->ctx, "%s: not present, skipped\n", path);
		free(path);
		return 0;
	}
	if (r < 0) {
		free(path);
		return r;
	}
	if (strcmp(file, "modules.alias") == 0)
		r = load_alias_text(t, LAYER_ALIAS, path, buf, len);
	else if (strcmp(file, "modules.symbols") == 0)
		r = load_alias_text(t, LAYER_SYMBOL, path, buf, len);
	else if (strcmp(file, "modules.order") == 0)
		r = load_order(t, buf, len);
	else if (strcmp(file, "modules.dep") == 0)
		r = load_names(t, LAYER_NAME, path, buf, len);
	else if (strcmp(file, "modules.builtin") == 0)
		r = load_names(t, LAYER_BUILTIN_NAME, path, buf, len);
	else
		r = load_builtin_modinfo(t, path, buf, len);
	free(buf);
	free(path);
	return r;
}

int table_default_dir(char **ret)
{
	struct utsname u;
	struct strbuf sb;

	if (uname(&u) < 0)
		return -errno;
	strbuf_init(&sb);
	strbuf_printf(&sb, "/lib/modules/%s", u.release);
	return strbuf_steal(&sb, ret);
}

MODALIAS_EXPORT int modalias_table_new_from_directory(struct modalias_ctx *ctx, const char *dir,
						      struct modalias_table **ret)
{
	/* modules.order first: it sets the priorities of what follows */
	static const struct {
		const char *file;
		bool required;
	} files[] = {
		{ "modules.order", false },   { "modules.alias", true },
		{ "modules.dep", false },     { "modules.symbols", false },
		{ "modules.builtin", false }, { "modules.builtin.modinfo", false },
	};
	struct modalias_table *t;
	char *dflt = NULL;
	int r, bad = 0;

	if (!ctx || !ret)
		return -EINVAL;
	if (!dir) {
		r = table_default_dir(&dflt);
		if (r < 0)
			return r;
		if (!dflt)
			return -ENOMEM;
		dir = dflt;
	}
	r = modalias_table_new(ctx, &t);
	if (r < 0)
		goto out;
	t->dir = strpool_add(&t->pool, dir, strlen(dir));
	table_dir_stamp(dir, &t->dir_id);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(files); i++) {
		/* stamped before reading: a change while we read makes it stale */
		r = table_source_stamp(dir, files[i].file, &t->sources[t->n_sources++]);
		if (r < 0)
			err(ctx, "cannot open %s/%s: %s\n", dir, files[i].file, strerror(-r));
		else
			r = load_dir_file(t, dir, files[i].file, files[i].required);
		if (r > 0)
			bad += r;
	}
	if (r < 0) {
		modalias_table_unref(t);
		goto out;
	}
	r = table_build(t);
	if (r < 0) {
		modalias_table_unref(t);
		goto out;
	}
	t->skipped = (uint32_t)bad;
	*ret = t;
	r = bad;
out:
	free(dflt);
	return r;
}

/* ---- modprobe.d through libkmod ------------------------------------------- */

static void kmod_log_bridge(void *data, int priority, const char *file, int line,
			    const char *fn, const char *format, va_list args)
{
	struct modalias_table *t = data;
	char *msg = NULL;

	if (!log_enabled(t->ctx, priority) || vasprintf(&msg, format, args) < 0)
		return;
	modalias_log(t->ctx, priority, file, line, fn, "libkmod: %s", msg);
	free(msg);
}

/* The origin of FILE, added when new; FALLBACK when it cannot be kept
 * (where an origin is kept, it has 8 bits; no memory) */
static uint32_t file_origin(struct modalias_table *t, const char *file, uint32_t fallback)
{
	uint32_t o;

	for (o = 0; o < t->n_origins && strcmp(t->pool.buf + t->origins[o], file) != 0; o++)
		;
	if (o == t->n_origins)
		o = origin_add(t, file);
	return o > 0xff || t->pool.oom ? fallback : o;
}

/* One modprobe.d entry into layer L, with the file and line of W that say
 * it (COMMAND NAME [MODULE], modprobe-d.c; the first not given to an
 * entry before, so the n-th of a name is the n-th line) when they can be found, else
 * "modprobe.d".  The first makes the table's own arrays and the
 * configuration's layers ours (a table mapped from an index cache keeps its
 * other layers mapped) and names that origin.  An entry that is not one is
 * logged and skipped: kmod would not match it either. */
static int add_config(struct modalias_table *t, enum layer_id l, struct modprobe_d_where *w,
		      const char *command, const char *pattern, const char *module, uint32_t *origin)
{
	const char *file;
	unsigned int line = 0;
	uint32_t o;
	int r;

	if (*origin == UINT32_MAX) {
		if ((r = table_own_layers(t, LAYERS_CONFIG)) < 0)
			return r;
		*origin = origin_add(t, "modprobe.d");
	}
	o = *origin;
	if (modprobe_d_where_find(w, command, pattern, strcmp(command, "alias") == 0 ? module : NULL, &file,
				  &line) == 0) {
		o = file_origin(t, file, *origin);
		if (o == *origin)
			line = 0;
	}
	r = add_pattern(t, l, pattern, strlen(pattern), module, strlen(module), o, line);
	return r == -EINVAL ? 0 : r;
}

MODALIAS_EXPORT int modalias_table_is_current(struct modalias_table *t)
{
	char why[4200];
	int r;

	if (!t)
		return -EINVAL;
	if (!t->dir || !t->n_sources)
		return 1;
	r = table_sources_check(t->pool.buf + t->dir, t->sources, t->n_sources, why, sizeof(why));
	if (r == -ESTALE) {
		info(t->ctx, "%s\n", why);
		return 0;
	}
	return r < 0 ? r : 1;
}

MODALIAS_EXPORT int modalias_table_load_config(struct modalias_table *t,
					       const char *const *config_paths)
{
	const char *dir;
	struct kmod_ctx *kctx;
	struct modprobe_d_copy *copy;
	struct kmod_config_iter *iter;
	struct modprobe_d_where *where = NULL;
	uint32_t origin = UINT32_MAX; /* none yet: nothing added */
	int r = 0;

	if (!t)
		return -EINVAL;
	if ((r = table_changeable(t)) < 0)
		return r;
	dir = t->dir ? t->pool.buf + t->dir : NULL;
	r = kmod_dl_open();
	if (r < 0) {
		err(t->ctx, "cannot load %s: the modprobe configuration is not read\n", KMOD_SONAME);
		return r;
	}
	r = modprobe_d_kmod_new(t->ctx, dir, config_paths, &kctx, &copy);
	if (r < 0) {
		if (r == -ENOMEM)
			err(t->ctx, "cannot read the modprobe configuration\n");
		return r;
	}
	kmod_dl.kmod_set_log_fn(kctx, kmod_log_bridge, t);
	/* where each entry is said, for lookups' and blacklists' origins */
	r = modprobe_d_where_open(config_paths, &where);
	iter = r >= 0 ? kmod_dl.kmod_config_get_aliases(kctx) : NULL;
	while (r >= 0 && iter && kmod_dl.kmod_config_iter_next(iter))
		r = add_config(t, LAYER_CONFIG, where, "alias", kmod_dl.kmod_config_iter_get_key(iter),
			       kmod_dl.kmod_config_iter_get_value(iter), &origin);
	if (iter)
		kmod_dl.kmod_config_iter_free_iter(iter);
	/* install and remove commands make their module names resolvable */
	for (int k = 0; r >= 0 && k < 2; k++) {
		iter = k == 0 ? kmod_dl.kmod_config_get_install_commands(kctx) : kmod_dl.kmod_config_get_remove_commands(kctx);
		while (r >= 0 && iter && kmod_dl.kmod_config_iter_next(iter)) {
			const char *module = kmod_dl.kmod_config_iter_get_key(iter);

			r = add_config(t, LAYER_COMMAND, where, k == 0 ? "install" : "remove", module, module, &origin);
		}
		if (iter)
			kmod_dl.kmod_config_iter_free_iter(iter);
	}
	/* blacklists: not for lookups, for modalias_table_is_blacklisted() */
	iter = r >= 0 ? kmod_dl.kmod_config_get_blacklists(kctx) : NULL;
	while (r >= 0 && iter && kmod_dl.kmod_config_iter_next(iter)) {
		const char *module = kmod_dl.kmod_config_iter_get_key(iter);

		r = add_config(t, LAYER_BLACKLIST, where, "blacklist", module, module, &origin);
	}
	if (iter)
		kmod_dl.kmod_config_iter_free_iter(iter);
	modprobe_d_where_free(where);
	kmod_dl.kmod_unref(kctx);
	modprobe_d_copy_free(copy);
	if (r >= 0)
		r = table_build(t);
	return r < 0 ? r : 0;
}

MODALIAS_EXPORT int modalias_table_add_blacklist_from(struct modalias_table *t, const char *module, const char *file,
						      unsigned int line)
{
	uint32_t o = 0; /* "(added)" */
	int r;

	if (!t || !module || !*module)
		return -EINVAL;
	if ((r = table_own_layers(t, 1u << LAYER_BLACKLIST)) < 0)
		return r;
	if (file && *file)
		o = file_origin(t, file, 0);
	return add_pattern(t, LAYER_BLACKLIST, module, strlen(module), module, strlen(module), o,
			   file && *file && o ? line : 0);
}

MODALIAS_EXPORT int modalias_table_add_blacklist(struct modalias_table *t, const char *module)
{
	return modalias_table_add_blacklist_from(t, module, NULL, 0);
}

MODALIAS_EXPORT int modalias_table_get_pattern_count(const struct modalias_table *t)
{
	if (!t)
		return -EINVAL;
	return (int)t->layers[LAYER_ALIAS].n;
}
