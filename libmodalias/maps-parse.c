/*
 * libmodalias - legacy map files: reading them.  Text (a buffer, or a file
 * read whole through shared/read-file) becomes a map object: the type
 * taken from the header line or the file name, each row tokenized and each
 * column read as its kind in the column tables says, with the writer's
 * quirks (glued inputmap names, 14-number inputmap rows, ofmap's 20-column
 * slots); a bad row is logged as FILE:LINE:COLUMN and skipped.  The only
 * file that creates map objects; it may not match, make patterns, write,
 * or touch an alias table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps-private.h"
#include "read-file.h"

struct token {
	const char *s;
	size_t len;
	size_t col; /* 1-based */
};

struct tokens {
	struct token *t;
	unsigned int n, cap;
};

static int tokens_push(struct tokens *tk, const char *s, size_t len, size_t col)
{
	if (tk->n == tk->cap) {
		unsigned int cap = tk->cap ? tk->cap * 2 : 32;
		struct token *n = realloc(tk->t, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		tk->t = n;
		tk->cap = cap;
	}
	tk->t[tk->n++] = (struct token){ s, len, col };
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int tokenize(const char *s, size_t len, struct tokens *tk)
{
	size_t i = 0;

	tk->n = 0;
	while (i < len) {
		size_t start;
		int r;

		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len)
			break;
		start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		r = tokens_push(tk, s + start, i - start, start + 1);
		if (r < 0)
			return r;
	}
	return 0;
}

struct parser {
	struct modalias_map *map;
	unsigned int line;
	struct tokens tk;
	uint64_t *vals;
	unsigned int n_vals, cap_vals;
};

static int row_error(struct parser *p, size_t col, const char *field, const char *fmt, ...)
	_printf_(4, 5);
static int row_error(struct parser *p, size_t col, const char *field, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!log_enabled(p->map->ctx, LOG_ERR))
		return -EINVAL;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (field)
		err(p->map->ctx, "%s:%u:%zu: %s: %s, row skipped\n", p->map->name, p->line, col, field,
		    msg ? msg : "bad value");
	else
		err(p->map->ctx, "%s:%u:%zu: %s, row skipped\n", p->map->name, p->line, col,
		    msg ? msg : "bad row");
	free(msg);
	return -EINVAL;
}

static int push_val(struct parser *p, uint64_t v)
{
	if (p->n_vals == p->cap_vals) {
		unsigned int cap = p->cap_vals ? p->cap_vals * 2 : 64;
		uint64_t *n = realloc(p->vals, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->vals = n;
		p->cap_vals = cap;
	}
	p->vals[p->n_vals++] = v;
	return 0;
}

static uint64_t bits_max(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

static int parse_num(struct parser *p, const struct token *t, const struct map_col *cd)
{
	uint64_t v;
	int r;

	if (t->len < 3 || t->s[0] != '0' || (t->s[1] != 'x' && t->s[1] != 'X'))
		return row_error(p, t->col, cd->name, "'%.*s' is not a 0x-prefixed hexadecimal number",
				 (int)(t->len > 40 ? 40 : t->len), t->s);
	r = parse_hex(t->s, t->len, bits_max(cd->bits), &v);
	if (r == -ERANGE)
		return row_error(p, t->col, cd->name, "'%.*s' is out of range (%u bits at most)",
				 (int)(t->len > 40 ? 40 : t->len), t->s, cd->bits);
	if (r < 0)
		return row_error(p, t->col, cd->name, "'%.*s' is not a hexadecimal number",
				 (int)(t->len > 40 ? 40 : t->len), t->s);
	return push_val(p, v);
}

/* "1:0:ffff0000": words highest first; word size unknown, each at most 64 bits */
static int parse_bitmap(struct parser *p, const struct token *t, const struct map_col *cd)
{
	size_t i = 0;

	while (i <= t->len) {
		const char *colon = memchr(t->s + i, ':', t->len - i);
		size_t end = colon ? (size_t)(colon - t->s) : t->len;
		uint64_t v;
		int r = parse_hex(t->s + i, end - i, UINT64_MAX, &v);

		if (r == 0 && end - i >= 2 && t->s[i + 1] == 'x')
			r = -EINVAL; /* words are written without 0x */
		if (r == -ERANGE)
			return row_error(p, t->col + i, cd->name,
					 "bitmap word '%.*s' is wider than 64 bits",
					 (int)(end - i > 40 ? 40 : end - i), t->s + i);
		if (r < 0)
			return row_error(p, t->col + i, cd->name,
					 "'%.*s' is not a bitmap (hexadecimal words separated by ':')",
					 (int)(t->len > 40 ? 40 : t->len), t->s);
		if ((r = push_val(p, v)) < 0)
			return r;
		if (!colon)
			break;
		i = end + 1;
	}
	return 0;
}

/* Copies an ofmap string, "*" (or nothing) meaning empty. */
static char *of_string(const char *s, size_t len)
{
	while (len && is_blank(s[len - 1]))
		len--;
	if (len == 1 && s[0] == '*')
		len = 0;
	return strndup(s, len);
}

/* ofmap: "%-20s %-20s %-20s %s".  The writer's strip_whitespace() leaves
 * embedded spaces alone, so fields are taken by their fixed 21-column
 * slots where the row has that layout, else by white space (the
 * compatible is then the rest of the line). */
static int parse_of(struct parser *p, struct map_entry *e, const char *s, size_t len)
{
	const struct token *mod = &p->tk.t[0];
	size_t pos = mod->col - 1 + mod->len, starts[3], ends[3];
	bool fixed = mod->col == 1 && (mod->len >= 20 ? pos + 1 : 21) < len;
	size_t slot = mod->len >= 20 ? pos + 1 : 21;

	/* fixed layout: the module is padded to 20 columns and one space */
	if (fixed)
		for (size_t i = pos; i < slot; i++)
			if (s[i] != ' ')
				fixed = false;
	if (fixed && s[slot] == ' ')
		fixed = false;
	if (fixed) {
		size_t q = slot;

		for (int f = 0; f < 2; f++) {
			starts[f] = q;
			if (q + 20 < len && s[q + 20] == ' ' && !memchr(s + q, '\t', 20)) {
				ends[f] = q + 20;
				q += 21;
			} else {
				/* longer than its slot: up to the next space */
				while (q < len && !is_blank(s[q]))
					q++;
				ends[f] = q;
				if (q < len)
					q++;
			}
		}
		starts[2] = q;
		ends[2] = len;
		if (q >= len)
			fixed = false;
	}
	if (!fixed) {
		if (p->tk.n < 4)
			return row_error(p, p->tk.n ? p->tk.t[p->tk.n - 1].col + p->tk.t[p->tk.n - 1].len : 1,
					 NULL, "%u columns, expected 4 (module, name, type, compatible)",
					 p->tk.n);
		for (int f = 0; f < 2; f++) {
			starts[f] = p->tk.t[f + 1].col - 1;
			ends[f] = starts[f] + p->tk.t[f + 1].len;
		}
		starts[2] = p->tk.t[3].col - 1;
		ends[2] = len;
	}
	for (int f = 0; f < 3; f++) {
		e->str[f] = of_string(s + starts[f], ends[f] - starts[f]);
		if (!e->str[f])
			return -ENOMEM;
	}
	return 0;
}

static int parse_row(struct parser *p, const char *s, size_t len)
{
	struct modalias_map *map = p->map;
	const struct map_type_desc *td = &map_types[map->type];
	struct map_entry e = { .line = p->line };
	struct tokens *tk = &p->tk;
	unsigned int want = td->n_cols, c, t;
	const char *why;
	int r;

	r = tokenize(s, len, tk);
	if (r < 0)
		return r;
	/* the caller gives rows with a word in them; a blank one is no row */
	if (tk->n == 0)
		return 0;
	/* inputmap: a name of 20 characters or more is glued to matchBits */
	if (map->type == MODALIAS_MAP_INPUT && (tk->n == 14 || tk->n == 15)) {
		const struct token *t0 = &tk->t[0];
		const char *x = NULL;

		for (size_t i = 1; i + 1 < t0->len; i++)
			if (t0->s[i] == '0' && t0->s[i + 1] == 'x')
				x = t0->s + i;
		if (x) {
			size_t nl = (size_t)(x - t0->s);
			struct token glued = { x, t0->len - nl, t0->col + nl };

			r = tokens_push(tk, NULL, 0, 0);
			if (r < 0)
				return r;
			memmove(tk->t + 2, tk->t + 1, (tk->n - 2) * sizeof(*tk->t));
			tk->t[0].len = nl;
			tk->t[1] = glued;
		}
	}
	/* the module: a name kmod takes (module_name_check()), as the table
	 * and the loader will want it */
	r = module_name_check(tk->t[0].s, tk->t[0].len, &why);
	if (r < 0) {
		r = row_error(p, tk->t[0].col, "module", "'%.*s' is not a module name: %s",
			      (int)(tk->t[0].len > 40 ? 40 : tk->t[0].len), tk->t[0].s,
			      why ? why : "longer than 255 bytes");
		goto fail;
	}
	if (map->type == MODALIAS_MAP_OF) {
		r = parse_of(p, &e, s, len);
		if (r < 0)
			goto fail;
		e.n_cols = 3;
		goto done;
	}
	if (map->type == MODALIAS_MAP_INPUT) {
		if (tk->n != 15 && tk->n != 16) {
			r = row_error(p, tk->n > 16 ? tk->t[16].col : tk->t[tk->n - 1].col + tk->t[tk->n - 1].len,
				      NULL, "%u columns, expected 15 or 16 (module, matchBits … driver_info, swBits optional)",
				      tk->n);
			goto fail;
		}
	} else if (map->type == MODALIAS_MAP_ISAPNP) {
		if (tk->n < 4 || (tk->n - 4) % 2 != 0) {
			r = row_error(p, tk->t[tk->n - 1].col + tk->t[tk->n - 1].len, NULL,
				      "%u columns, expected module, cardvendor, carddevice, driver_data and (vendor, function) pairs",
				      tk->n);
			goto fail;
		}
	} else if (tk->n != want + 1) {
		r = row_error(p, tk->n > want + 1 ? tk->t[want + 1].col : tk->t[tk->n - 1].col + tk->t[tk->n - 1].len,
			      NULL, "%u columns, expected %u (module and %u numbers)", tk->n, want + 1, want);
		goto fail;
	}
	p->n_vals = 0;
	for (c = 0, t = 1; t < tk->n; c++) {
		const struct map_col *cd = &td->cols[c];

		/* 14-column inputmaps (before 2.6.14) have no swBits */
		if (map->type == MODALIAS_MAP_INPUT && c == IN_SW && tk->n == 15) {
			e.off[c] = p->n_vals;
			if ((r = push_val(p, 0)) < 0)
				goto fail;
			continue;
		}
		e.off[c] = p->n_vals;
		if (cd->kind == MODALIAS_MAP_FIELD_LIST) {
			/* vendor and function: every other token from here */
			for (unsigned int k = t + (c == I_FUNCTION); k < tk->n; k += 2) {
				/* p->tk.t lives as long as the parser: a false leak
				 * (the map fuzzer's 2.5M runs under LeakSanitizer agree) */
				/* NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
				r = parse_num(p, &tk->t[k], cd);
				if (r < 0)
					goto fail;
			}
			if (c == I_FUNCTION)
				t = tk->n;
			continue;
		}
		r = cd->kind == MODALIAS_MAP_FIELD_BITMAP ? parse_bitmap(p, &tk->t[t], cd) : parse_num(p, &tk->t[t], cd);
		if (r < 0)
			goto fail;
		t++;
	}
	e.n_cols = c;
	e.off[c] = p->n_vals;
	if (map->type == MODALIAS_MAP_ISAPNP && e.n_cols == I_VENDOR) {
		/* a card without devices */
		e.off[I_FUNCTION] = e.off[I_FUNCTION + 1] = p->n_vals;
		e.n_cols = map_types[MODALIAS_MAP_ISAPNP].n_cols;
	}
	e.vals = malloc((p->n_vals ? p->n_vals : 1) * sizeof(*e.vals));
	if (!e.vals) {
		r = -ENOMEM;
		goto fail;
	}
	if (p->n_vals) /* p->vals is NULL before the first value */
		memcpy(e.vals, p->vals, p->n_vals * sizeof(*e.vals));
done:
	e.module = strndup(tk->t[0].s, tk->t[0].len);
	if (!e.module) {
		r = -ENOMEM;
		goto fail;
	}
	if (map->n == map->cap) {
		unsigned int cap = map->cap ? map->cap * 2 : 64;
		struct map_entry *n = realloc(map->entries, cap * sizeof(*n));
		if (!n) {
			r = -ENOMEM;
			goto fail;
		}
		map->entries = n;
		map->cap = cap;
	}
	map->entries[map->n++] = e;
	return 0;
fail:
	map_entry_free(&e);
	return r;
}

/* The header line module-init-tools wrote: "# usb module …" */
static int guess_from_header(const char *buf, size_t len)
{
	for (unsigned int t = 0; t < map_n_types; t++) {
		size_t n = strlen(map_types[t].head);
		if (len >= n && memcmp(buf, map_types[t].head, n) == 0)
			return (int)t;
	}
	return -ENOENT;
}

/* modules.usbmap, usb.usermap, usb.handmap, …: the bus name just before
 * "map"/".usermap"/".handmap", or "modules.<bus>map". */
static int guess_from_name(const char *name)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	if (strncmp(base, "modules.", 8) == 0)
		base += 8;
	for (int t = (int)map_n_types - 1; t >= 0; t--) {
		size_t n = strlen(map_types[t].name);
		if (strncmp(base, map_types[t].name, n) == 0 &&
		    (strncmp(base + n, "map", 3) == 0 || base[n] == '.'))
			return t;
	}
	for (int t = (int)map_n_types - 1; t >= 0; t--) {
		char suffix[16];

		snprintf(suffix, sizeof(suffix), ".%smap", map_types[t].name);
		if (strlen(base) >= strlen(suffix) && strcmp(base + strlen(base) - strlen(suffix), suffix) == 0)
			return t;
	}
	return -ENOENT;
}

/* The word size of the bitmaps: 64 when a word needs it, else the
 * context's when it is given (modalias_ctx_set_word_bits()), 32 when there
 * are more words than a 64-bit kernel writes, else this machine's (said
 * when it matters: a bitmap of several words). */
static unsigned int guess_word_bits(const struct modalias_map *map)
{
	int given = modalias_ctx_get_word_bits(map->ctx);
	bool need32 = false, several = false;

	for (unsigned int i = 0; i < map->n; i++) {
		const struct map_entry *e = &map->entries[i];

		for (unsigned int c = IN_EV; c <= IN_SW; c++) {
			unsigned int n = e->off[c + 1] - e->off[c];

			for (unsigned int k = 0; k < n; k++)
				if (e->vals[e->off[c] + k] > UINT32_MAX) {
					if (given == 32)
						err(map->ctx, "%s:%u: %.*s: a bitmap word wider than 32 bits: read as "
							      "64-bit words, not the 32 given\n",
						    map->name, e->line, LOG_ECHO(e->module));
					return 64;
				}
			if (n > map_types[MODALIAS_MAP_INPUT].cols[c].max_bit / 64u + 1)
				need32 = true;
			several |= n > 1;
		}
	}
	if (given > 0)
		return (unsigned int)given;
	if (need32)
		return 32;
	if (several)
		info(map->ctx, "%s: bitmap words of 8 digits at most do not tell their size: read as %u-bit words "
			       "(this machine's); set the word size if the file is from a kernel of another\n",
		     map->name, ctx_get_long_bits(map->ctx));
	return ctx_get_long_bits(map->ctx);
}

MODALIAS_EXPORT int modalias_map_new_from_buffer(struct modalias_ctx *ctx, const char *name,
						 const char *buf, size_t len, int type,
						 struct modalias_map **ret)
{
	struct parser p = { 0 };
	struct modalias_map *map;
	const char *s = buf, *end = buf + len;
	unsigned int bad = 0;
	int r = 0;

	if (!ctx || !ret || (!buf && len) || (type != -1 && !map_type_valid(type)))
		return -EINVAL;
	if (!name)
		name = "(buffer)";
	if (type == -1) {
		type = guess_from_header(buf ? buf : "", len);
		if (type < 0)
			type = guess_from_name(name);
		if (type < 0) {
			err(ctx, "%s: not a known map file (neither its name nor its header says which)\n", name);
			return -EINVAL;
		}
	}
	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->refcount = 1;
	map->ctx = modalias_ctx_ref(ctx);
	map->type = (enum modalias_map_type)type;
	map->name = strdup(name);
	if (!map->name) {
		modalias_map_unref(map);
		return -ENOMEM;
	}
	p.map = map;
	while (buf && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *q;
		size_t n = (size_t)((nl ? nl : end) - s);

		p.line++;
		q = s;
		while (q < s + n && is_blank(*q))
			q++;
		if (memchr(s, '\0', n)) {
			err(ctx, "%s:%u:%zu: NUL byte in the row, row skipped\n", name, p.line,
			    (size_t)((const char *)memchr(s, '\0', n) - s) + 1);
			bad++;
		} else if (q < s + n && *q != '#') {
			r = parse_row(&p, s, n);
			if (r == -ENOMEM)
				break;
			if (r < 0)
				bad++;
			r = 0;
		}
		s = nl ? nl + 1 : end;
	}
	free(p.tk.t);
	free(p.vals);
	if (r < 0) {
		modalias_map_unref(map);
		return r;
	}
	map->word_bits = map->type == MODALIAS_MAP_INPUT ? guess_word_bits(map) : 64;
	*ret = map;
	return (int)bad;
}

MODALIAS_EXPORT int modalias_map_new_from_file(struct modalias_ctx *ctx, const char *path,
					       int type, struct modalias_map **ret)
{
	char *buf;
	size_t len;
	int r;

	if (!ctx || !path || !ret)
		return -EINVAL;
	/* bounded: documented in libmodalias.h */
	r = read_file(path, READ_FILE_TABLE_MAX, READ_FILE_NO_KERNEL_FS, &buf, &len);
	if (r < 0) {
		char buf_why[64];
		const char *why = read_file_error(r, READ_FILE_TABLE_MAX, buf_why, sizeof(buf_why));

		err(ctx, "cannot %s %s: %s\n", r == -EFBIG ? "read" : "open", path, why);
		return r;
	}
	r = modalias_map_new_from_buffer(ctx, path, buf, len, type, ret);
	free(buf);
	return r;
}
