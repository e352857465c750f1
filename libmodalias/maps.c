/*
 * libmodalias - the legacy module-init-tools map files (modules.usbmap,
 * pcimap, ieee1394map, ccwmap, isapnpmap, inputmap, ofmap, seriomap):
 * reading them, matching device IDs against them by match_flags as the
 * kernel matches its device tables, turning their rows into modules.alias
 * patterns as the kernel's file2alias does, and writing them back from an
 * alias table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bus-private.h"
#include "libmodalias-private.h"
#include "read-file.h"
#include "table-private.h"
#include "maps-private.h"

/* ---- the column layouts ------------------------------------------------ */

enum col_kind {
	CK_NUM,    /* 0x-prefixed hex scalar */
	CK_BITMAP, /* inputmap bitmap: "%x" words, highest first, ':'-separated */
	CK_LIST,   /* isapnp (vendor, function) pairs: a repeated column */
	CK_STR,    /* ofmap string, "*" for empty */
};

struct col_desc {
	const char *name;
	uint8_t kind;
	uint8_t bits; /* widest value */
	uint16_t max_bit; /* bitmaps: the kernel's *_MAX of today (bits above are dropped) */
};

#define NUM(n, b) { .name = (n), .kind = CK_NUM, .bits = (b) }
#define BMP(n, m) { .name = (n), .kind = CK_BITMAP, .bits = 64, .max_bit = (m) }

static const struct col_desc usb_cols[] = {
	NUM("match_flags", 16), NUM("idVendor", 16), NUM("idProduct", 16),
	NUM("bcdDevice_lo", 16), NUM("bcdDevice_hi", 16), NUM("bDeviceClass", 8),
	NUM("bDeviceSubClass", 8), NUM("bDeviceProtocol", 8), NUM("bInterfaceClass", 8),
	NUM("bInterfaceSubClass", 8), NUM("bInterfaceProtocol", 8), NUM("driver_info", 64),
};
enum { U_FLAGS, U_VENDOR, U_PRODUCT, U_LO, U_HI, U_DC, U_DSC, U_DP, U_IC, U_ISC, U_IP, U_INFO };

static const struct col_desc pci_cols[] = {
	NUM("vendor", 32), NUM("device", 32), NUM("subvendor", 32), NUM("subdevice", 32),
	NUM("class", 32), NUM("class_mask", 32), NUM("driver_data", 64),
};
enum { P_VENDOR, P_DEVICE, P_SUBVENDOR, P_SUBDEVICE, P_CLASS, P_MASK, P_DATA };

static const struct col_desc ieee1394_cols[] = {
	NUM("match_flags", 32), NUM("vendor_id", 32), NUM("model_id", 32),
	NUM("specifier_id", 32), NUM("version", 32),
};

static const struct col_desc ccw_cols[] = {
	NUM("match_flags", 16), NUM("cu_type", 16), NUM("cu_model", 8),
	NUM("dev_type", 16), NUM("dev_model", 8),
};

static const struct col_desc isapnp_cols[] = {
	NUM("cardvendor", 16), NUM("carddevice", 16), NUM("driver_data", 64),
	{ .name = "vendor", .kind = CK_LIST, .bits = 16 },
	{ .name = "function", .kind = CK_LIST, .bits = 16 },
};
enum { I_CARDVENDOR, I_CARDDEVICE, I_DATA, I_VENDOR, I_FUNCTION };

static const struct col_desc input_cols[] = {
	NUM("matchBits", 64), NUM("bustype", 16), NUM("vendor", 16), NUM("product", 16),
	NUM("version", 16), BMP("evBits", 0x1f), BMP("keyBits", 0x2ff), BMP("relBits", 0x0f),
	BMP("absBits", 0x3f), BMP("mscBits", 0x07), BMP("ledBits", 0x0f), BMP("sndBits", 0x07),
	BMP("ffBits", 0x7f), BMP("swBits", 0x11), NUM("driver_info", 64),
};
enum { IN_FLAGS, IN_BUS, IN_VENDOR, IN_PRODUCT, IN_VERSION, IN_EV, IN_SW = 13, IN_INFO };
#define INPUT_KEY_MIN_INTERESTING 0x71

static const struct col_desc of_cols[] = {
	{ .name = "name", .kind = CK_STR }, { .name = "type", .kind = CK_STR },
	{ .name = "compatible", .kind = CK_STR },
};

static const struct col_desc serio_cols[] = {
	NUM("type", 8), NUM("extra", 8), NUM("id", 8), NUM("proto", 8),
};
enum { S_TYPE, S_EXTRA, S_ID, S_PROTO };

static const struct map_type_desc {
	const char *name; /* "usb": modules.usbmap */
	const char *bus;  /* the modalias bus its devices are on */
	const char *header;
	const struct col_desc *cols;
	unsigned int n_cols;
} types[] = {
	[MODALIAS_MAP_USB] = { "usb", "usb",
		"# usb module         match_flags idVendor idProduct bcdDevice_lo bcdDevice_hi bDeviceClass bDeviceSubClass bDeviceProtocol bInterfaceClass bInterfaceSubClass bInterfaceProtocol driver_info\n",
		usb_cols, ARRAY_SIZE(usb_cols) },
	[MODALIAS_MAP_PCI] = { "pci", "pci",
		"# pci module         vendor     device     subvendor  subdevice  class      class_mask driver_data\n",
		pci_cols, ARRAY_SIZE(pci_cols) },
	[MODALIAS_MAP_IEEE1394] = { "ieee1394", "ieee1394",
		"# ieee1394 module    match_flags vendor_id model_id specifier_id version\n",
		ieee1394_cols, ARRAY_SIZE(ieee1394_cols) },
	[MODALIAS_MAP_CCW] = { "ccw", "ccw",
		"# ccw module         match_flags cu_type cu_model dev_type dev_model\n",
		ccw_cols, ARRAY_SIZE(ccw_cols) },
	[MODALIAS_MAP_ISAPNP] = { "isapnp", "pnp",
		"# isapnp module      cardvendor carddevice driver_data vendor     function   ...\n",
		isapnp_cols, ARRAY_SIZE(isapnp_cols) },
	[MODALIAS_MAP_INPUT] = { "input", "input",
		"# module         matchBits bustype vendor product version evBits keyBits relBits absBits mscBits ledBits sndBits ffBits [swBits] driver_info\n",
		input_cols, ARRAY_SIZE(input_cols) },
	[MODALIAS_MAP_OF] = { "of", "of",
		"# of module          name                 type                 compatible\n",
		of_cols, ARRAY_SIZE(of_cols) },
	[MODALIAS_MAP_SERIO] = { "serio", "serio",
		"# serio module       type extra id   proto\n",
		serio_cols, ARRAY_SIZE(serio_cols) },
};

static bool type_valid(int type)
{
	return type >= 0 && (size_t)type < ARRAY_SIZE(types);
}

MODALIAS_EXPORT const char *modalias_map_type_name(int type)
{
	return type_valid(type) ? types[type].name : NULL;
}

MODALIAS_EXPORT int modalias_map_type_from_name(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(types); i++)
		if (strcmp(types[i].name, name) == 0)
			return (int)i;
	return -EINVAL;
}

MODALIAS_EXPORT const char *modalias_map_type_field_name(int type, unsigned int index)
{
	if (!type_valid(type) || index >= types[type].n_cols)
		return NULL;
	return types[type].cols[index].name;
}

static int col_index(enum modalias_map_type type, const char *name)
{
	for (unsigned int i = 0; i < types[type].n_cols; i++)
		if (strcmp(types[type].cols[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

/* ---- the object --------------------------------------------------------- */

static void entry_free(struct map_entry *e)
{
	free(e->module);
	free(e->vals);
	for (int i = 0; i < 3; i++)
		free(e->str[i]);
}

MODALIAS_EXPORT struct modalias_map *modalias_map_ref(struct modalias_map *map)
{
	if (map)
		map->refcount++;
	return map;
}

MODALIAS_EXPORT struct modalias_map *modalias_map_unref(struct modalias_map *map)
{
	if (!map)
		return NULL;
	if (--map->refcount > 0)
		return map;
	for (unsigned int i = 0; i < map->n; i++)
		entry_free(&map->entries[i]);
	free(map->entries);
	free(map->name);
	modalias_ctx_unref(map->ctx);
	free(map);
	return NULL;
}

MODALIAS_EXPORT int modalias_map_get_type(const struct modalias_map *map)
{
	return map ? (int)map->type : -EINVAL;
}

MODALIAS_EXPORT int modalias_map_get_count(const struct modalias_map *map)
{
	return map ? (int)map->n : -EINVAL;
}

MODALIAS_EXPORT const char *modalias_map_get_name(const struct modalias_map *map)
{
	return map ? map->name : NULL;
}

MODALIAS_EXPORT const char *modalias_map_get_module(const struct modalias_map *map,
						    unsigned int index)
{
	return map && index < map->n ? map->entries[index].module : NULL;
}

MODALIAS_EXPORT unsigned int modalias_map_get_line(const struct modalias_map *map,
						   unsigned int index)
{
	return map && index < map->n ? map->entries[index].line : 0;
}

MODALIAS_EXPORT int modalias_map_get_word_bits(const struct modalias_map *map)
{
	return map ? (int)map->word_bits : -EINVAL;
}

MODALIAS_EXPORT int modalias_map_set_word_bits(struct modalias_map *map, unsigned int bits)
{
	if (!map || (bits != 32 && bits != 64))
		return -EINVAL;
	map->word_bits = bits;
	return 0;
}

static int lookup_col(const struct modalias_map *map, unsigned int index, const char *field,
		      const struct map_entry **e)
{
	int c;

	if (!map || !field)
		return -EINVAL;
	c = col_index(map->type, field);
	if (c < 0)
		return c;
	if (index >= map->n)
		return -ERANGE;
	*e = &map->entries[index];
	return c;
}

MODALIAS_EXPORT int modalias_map_get_field_count(const struct modalias_map *map,
						 unsigned int index, const char *field)
{
	const struct map_entry *e;
	int c = lookup_col(map, index, field, &e);

	if (c < 0)
		return c;
	if (types[map->type].cols[c].kind == CK_STR)
		return 1;
	return (int)(e->off[c + 1] - e->off[c]);
}

MODALIAS_EXPORT int modalias_map_get_field(const struct modalias_map *map, unsigned int index,
					   const char *field, unsigned int item, uint64_t *value)
{
	const struct map_entry *e;
	int c = lookup_col(map, index, field, &e);

	if (c < 0)
		return c;
	if (types[map->type].cols[c].kind == CK_STR || !value)
		return -EINVAL;
	if (item >= e->off[c + 1] - e->off[c])
		return -ERANGE;
	/* bitmaps: item 0 is the lowest word, the file's last */
	if (types[map->type].cols[c].kind == CK_BITMAP)
		item = e->off[c + 1] - e->off[c] - 1 - item;
	*value = e->vals[e->off[c] + item];
	return 0;
}

MODALIAS_EXPORT int modalias_map_get_string(const struct modalias_map *map, unsigned int index,
					    const char *field, const char **value)
{
	const struct map_entry *e;
	int c = lookup_col(map, index, field, &e);

	if (c < 0)
		return c;
	if (types[map->type].cols[c].kind != CK_STR || !value)
		return -EINVAL;
	*value = e->str[c];
	return 0;
}

/* Is bit b set in a bitmap column (words highest first)? */
static bool bitmap_test(const struct modalias_map *map, const struct map_entry *e, unsigned int c,
			unsigned int bit)
{
	unsigned int n = e->off[c + 1] - e->off[c], word = bit / map->word_bits;

	if (word >= n)
		return false;
	return (e->vals[e->off[c] + n - 1 - word] >> (bit % map->word_bits)) & 1;
}

/* ---- parsing ------------------------------------------------------------- */

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

static int parse_num(struct parser *p, const struct token *t, const struct col_desc *cd)
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
static int parse_bitmap(struct parser *p, const struct token *t, const struct col_desc *cd)
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
	const struct map_type_desc *td = &types[map->type];
	struct map_entry e = { .line = p->line };
	struct tokens *tk = &p->tk;
	unsigned int want = td->n_cols, c, t;
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
		const struct col_desc *cd = &td->cols[c];

		/* 14-column inputmaps (before 2.6.14) have no swBits */
		if (map->type == MODALIAS_MAP_INPUT && c == IN_SW && tk->n == 15) {
			e.off[c] = p->n_vals;
			if ((r = push_val(p, 0)) < 0)
				goto fail;
			continue;
		}
		e.off[c] = p->n_vals;
		if (cd->kind == CK_LIST) {
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
		r = cd->kind == CK_BITMAP ? parse_bitmap(p, &tk->t[t], cd) : parse_num(p, &tk->t[t], cd);
		if (r < 0)
			goto fail;
		t++;
	}
	e.n_cols = c;
	e.off[c] = p->n_vals;
	if (map->type == MODALIAS_MAP_ISAPNP && e.n_cols == I_VENDOR) {
		/* a card without devices */
		e.off[I_FUNCTION] = e.off[I_FUNCTION + 1] = p->n_vals;
		e.n_cols = ARRAY_SIZE(isapnp_cols);
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
	entry_free(&e);
	return r;
}

static int guess_from_header(const char *buf, size_t len)
{
	static const struct {
		const char *prefix;
		int type;
	} heads[] = {
		{ "# usb module", MODALIAS_MAP_USB },       { "# pci module", MODALIAS_MAP_PCI },
		{ "# ieee1394 module", MODALIAS_MAP_IEEE1394 }, { "# ccw module", MODALIAS_MAP_CCW },
		{ "# isapnp module", MODALIAS_MAP_ISAPNP }, { "# module         matchBits", MODALIAS_MAP_INPUT },
		{ "# of module", MODALIAS_MAP_OF },         { "# serio module", MODALIAS_MAP_SERIO },
	};

	for (size_t i = 0; i < ARRAY_SIZE(heads); i++) {
		size_t n = strlen(heads[i].prefix);
		if (len >= n && memcmp(buf, heads[i].prefix, n) == 0)
			return heads[i].type;
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
	for (int t = (int)ARRAY_SIZE(types) - 1; t >= 0; t--) {
		size_t n = strlen(types[t].name);
		if (strncmp(base, types[t].name, n) == 0 &&
		    (strncmp(base + n, "map", 3) == 0 || base[n] == '.'))
			return t;
	}
	for (int t = (int)ARRAY_SIZE(types) - 1; t >= 0; t--) {
		char suffix[16];

		snprintf(suffix, sizeof(suffix), ".%smap", types[t].name);
		if (strlen(base) >= strlen(suffix) && strcmp(base + strlen(base) - strlen(suffix), suffix) == 0)
			return t;
	}
	return -ENOENT;
}

/* The word size of the bitmaps: 64 when a word needs it, 32 when there
 * are more words than a 64-bit kernel writes, else the context's. */
static unsigned int guess_word_bits(const struct modalias_map *map)
{
	bool need32 = false;

	for (unsigned int i = 0; i < map->n; i++) {
		const struct map_entry *e = &map->entries[i];

		for (unsigned int c = IN_EV; c <= IN_SW; c++) {
			unsigned int n = e->off[c + 1] - e->off[c];

			for (unsigned int k = 0; k < n; k++)
				if (e->vals[e->off[c] + k] > UINT32_MAX)
					return 64;
			if (n > input_cols[c].max_bit / 64u + 1)
				need32 = true;
		}
	}
	return need32 ? 32 : ctx_get_long_bits(map->ctx);
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

	if (!ctx || !ret || (!buf && len) || (type != -1 && !type_valid(type)))
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
	r = read_file(path, READ_FILE_TABLE_MAX, 0, &buf, &len);
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

/* ---- ISAPnP ids ------------------------------------------------------------ */

int pnp_id_to_words(const char *id, uint16_t *vendor, uint16_t *function)
{
	unsigned int a, b, c;
	uint64_t d;

	if (strlen(id) != 7)
		return -EINVAL;
	for (int i = 0; i < 3; i++)
		if (!isalpha((unsigned char)id[i]))
			return -EINVAL;
	if (parse_hex(id + 3, 4, 0xffff, &d) < 0 || id[4] == 'x' || id[4] == 'X')
		return -EINVAL;
	a = (unsigned int)(toupper((unsigned char)id[0]) - 'A' + 1);
	b = (unsigned int)(toupper((unsigned char)id[1]) - 'A' + 1);
	c = (unsigned int)(toupper((unsigned char)id[2]) - 'A' + 1);
	*vendor = (uint16_t)(((a & 0x3f) << 2) | ((b & 0x18) >> 3) | ((b & 7) << 13) | ((c & 0x1f) << 8));
	/* the 16-bit number, its bytes swapped */
	*function = (uint16_t)(((d & 0xff) << 8) | (d >> 8));
	return 0;
}

void pnp_words_to_id(uint16_t vendor, uint16_t function, char id[8])
{
	unsigned int d = ((unsigned int)(function & 0xff) << 8) | (function >> 8);

	id[0] = (char)('A' - 1 + ((vendor >> 2) & 0x1f));
	id[1] = (char)('A' - 1 + (((vendor & 3) << 3) | ((vendor >> 13) & 7)));
	id[2] = (char)('A' - 1 + ((vendor >> 8) & 0x1f));
	snprintf(id + 3, 5, "%04X", d);
}

/* ---- matching --------------------------------------------------------------- */

/* A device field as a number: 1 with *v (0 when unset), 0 for a wildcard
 * (which matches anything), -ENOENT when the bus has no such field. */
static int dev_num(const struct modalias_dev *dev, const char *field, unsigned int item, uint64_t *v)
{
	int f = field_index(dev->bus, field);
	const struct fval *fv;

	if (f < 0)
		return f;
	fv = dev_val(dev, (unsigned int)f);
	*v = 0;
	if (item >= fv->n)
		return 1;
	if (fv->items[item].wild)
		return 0;
	*v = fv->items[item].num;
	return 1;
}

static bool num_eq(const struct modalias_dev *dev, const char *field, uint64_t want)
{
	uint64_t v;
	int r = dev_num(dev, field, 0, &v);

	return r == 0 || (r > 0 && v == want);
}

static bool match_usb(const struct map_entry *e, const struct modalias_dev *dev)
{
	static const char *const names[] = {
		NULL, "idVendor", "idProduct", NULL, NULL, "bDeviceClass", "bDeviceSubClass",
		"bDeviceProtocol", "bInterfaceClass", "bInterfaceSubClass", "bInterfaceProtocol",
	};
	static const unsigned int flag_of[] = { 0, 0x1, 0x2, 0, 0, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200 };
	uint64_t flags = e->vals[U_FLAGS], bcd;
	int r;

	for (unsigned int c = U_VENDOR; c <= U_IP; c++)
		if (names[c] && (flags & flag_of[c]) && !num_eq(dev, names[c], e->vals[c]))
			return false;
	r = dev_num(dev, "bcdDevice", 0, &bcd);
	if (r > 0 && (flags & 0x4) && bcd < e->vals[U_LO])
		return false;
	if (r > 0 && (flags & 0x8) && bcd > e->vals[U_HI])
		return false;
	return true;
}

static bool match_pci(const struct map_entry *e, const struct modalias_dev *dev)
{
	static const char *const names[] = { "vendor", "device", "subvendor", "subdevice" };
	static const char *const cls[] = { "baseclass", "subclass", "interface" };
	uint64_t mask = e->vals[P_MASK];

	for (unsigned int c = 0; c < 4; c++)
		if (e->vals[c] != 0xffffffff && !num_eq(dev, names[c], e->vals[c]))
			return false;
	/* (class ^ dev_class) & class_mask, byte by byte (a wildcard byte matches) */
	for (unsigned int b = 0; b < 3; b++) {
		unsigned int shift = 16 - 8 * b;
		uint64_t m = (mask >> shift) & 0xff, v;

		if (m && dev_num(dev, cls[b], 0, &v) > 0 && ((v ^ (e->vals[P_CLASS] >> shift)) & m))
			return false;
	}
	return true;
}

static bool match_flagged(const struct map_entry *e, const struct modalias_dev *dev,
			  const char *const *names, unsigned int n)
{
	for (unsigned int c = 1; c <= n; c++)
		if ((e->vals[0] & (1u << (c - 1))) && !num_eq(dev, names[c - 1], e->vals[c]))
			return false;
	return true;
}

static bool match_serio(const struct map_entry *e, const struct modalias_dev *dev)
{
	static const char *const names[] = { "type", "extra", "id", "proto" };

	for (unsigned int c = 0; c < 4; c++)
		if (e->vals[c] != 0xff && !num_eq(dev, names[c], e->vals[c]))
			return false;
	return true;
}

static bool dev_has_bit(const struct modalias_dev *dev, const char *field, uint64_t bit)
{
	int f = field_index(dev->bus, field);
	const struct fval *fv = dev_val(dev, (unsigned int)f);

	for (unsigned int i = 0; i < fv->n; i++)
		if (fv->items[i].wild || fv->items[i].num == bit)
			return true;
	return false;
}

static bool match_input(const struct modalias_map *map, const struct map_entry *e,
			const struct modalias_dev *dev)
{
	static const char *const scalars[] = { "bustype", "vendor", "product", "version" };
	static const char *const bitmaps[] = { "ev", "key", "rel", "abs", "msc", "led", "snd", "ff", "sw" };
	uint64_t flags = e->vals[IN_FLAGS];

	for (unsigned int c = 0; c < 4; c++)
		if ((flags & (1u << c)) && !num_eq(dev, scalars[c], e->vals[e->off[IN_BUS + c]]))
			return false;
	for (unsigned int c = IN_EV; c <= IN_SW; c++) {
		unsigned int first = c == IN_EV + 1 ? INPUT_KEY_MIN_INTERESTING : 0;

		if (!(flags & (0x10u << (c - IN_EV))))
			continue;
		/* every bit of the entry must be set in the device's bitmap (keys
		 * below KEY_MIN_INTERESTING are not in a modalias: not checked) */
		for (unsigned int bit = first; bit <= input_cols[c].max_bit; bit++)
			if (bitmap_test(map, e, c, bit) && !dev_has_bit(dev, bitmaps[c - IN_EV], bit))
				return false;
	}
	return true;
}

static bool match_isapnp(const struct map_entry *e, const struct modalias_dev *dev)
{
	const char *id;
	uint16_t v, f;

	if (modalias_dev_get(dev, "id", 0, &id) < 0 || pnp_id_to_words(id, &v, &f) < 0)
		return false;
	if (e->vals[I_CARDVENDOR] != 0xffff || e->vals[I_CARDDEVICE] != 0xffff)
		return e->vals[I_CARDVENDOR] == v && e->vals[I_CARDDEVICE] == f;
	for (unsigned int k = e->off[I_VENDOR]; k < e->off[I_VENDOR + 1]; k++)
		if (e->vals[k] == v && e->vals[e->off[I_FUNCTION] + (k - e->off[I_VENDOR])] == f)
			return true;
	return false;
}

static bool match_of(const struct map_entry *e, const struct modalias_dev *dev)
{
	const char *v;
	int n;

	if (e->str[0][0] && (modalias_dev_get(dev, "name", 0, &v) < 0 || strcmp(v, e->str[0]) != 0))
		return false;
	if (e->str[1][0] && (modalias_dev_get(dev, "type", 0, &v) < 0 || strcmp(v, e->str[1]) != 0))
		return false;
	if (!e->str[2][0])
		return true;
	n = modalias_dev_get_count(dev, "compatible");
	for (int i = 0; i < n; i++)
		if (modalias_dev_get(dev, "compatible", (unsigned int)i, &v) == 0 && strcasecmp(v, e->str[2]) == 0)
			return true;
	return false;
}

static bool entry_matches(const struct modalias_map *map, const struct map_entry *e,
			  const struct modalias_dev *dev)
{
	static const char *const ieee1394[] = { "vendor_id", "model_id", "specifier_id", "version" };
	static const char *const ccw[] = { "cu_type", "cu_model", "dev_type", "dev_model" };

	switch (map->type) {
	case MODALIAS_MAP_USB:
		return match_usb(e, dev);
	case MODALIAS_MAP_PCI:
		return match_pci(e, dev);
	case MODALIAS_MAP_IEEE1394:
		return match_flagged(e, dev, ieee1394, 4);
	case MODALIAS_MAP_CCW:
		return match_flagged(e, dev, ccw, 4);
	case MODALIAS_MAP_ISAPNP:
		return match_isapnp(e, dev);
	case MODALIAS_MAP_INPUT:
		return match_input(map, e, dev);
	case MODALIAS_MAP_OF:
		return match_of(e, dev);
	case MODALIAS_MAP_SERIO:
		return match_serio(e, dev);
	}
	return false;
}

MODALIAS_EXPORT int modalias_map_match(const struct modalias_map *map,
				       const struct modalias_dev *dev, unsigned int start,
				       unsigned int *index)
{
	const char *bus;

	if (!map || !dev || !index)
		return -EINVAL;
	bus = modalias_dev_get_bus(dev);
	if (strcmp(bus, types[map->type].bus) != 0) {
		err(map->ctx, "%s: a %s map matches %s devices, not %s devices\n", map->name,
		    types[map->type].name, types[map->type].bus, bus);
		return -EINVAL;
	}
	for (unsigned int i = start; i < map->n; i++)
		if (entry_matches(map, &map->entries[i], dev)) {
			*index = i;
			return 1;
		}
	return 0;
}

/* ---- entries to alias patterns: file2alias ------------------------------------ */

struct strv {
	char **v;
	unsigned int n, cap;
	bool oom;
};

static void strv_add_w(struct strv *sv, struct strbuf *sb, bool wildcard)
{
	char *s;

	if (sv->oom || sb->oom) {
		sv->oom = true;
		strbuf_release(sb);
		return;
	}
	/* file2alias: a trailing '*' unless there is one; duplicates dropped */
	if (wildcard && (sb->len == 0 || sb->buf[sb->len - 1] != '*'))
		strbuf_putc(sb, '*');
	if (strbuf_steal(sb, &s) < 0) {
		sv->oom = true;
		return;
	}
	for (unsigned int i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0) {
			free(s);
			return;
		}
	if (sv->n + 2 > sv->cap) {
		unsigned int cap = sv->cap ? sv->cap * 2 : 8;
		char **n = realloc(sv->v, cap * sizeof(*n));
		if (!n) {
			free(s);
			sv->oom = true;
			return;
		}
		sv->v = n;
		sv->cap = cap;
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

static void strv_add(struct strv *sv, struct strbuf *sb)
{
	strv_add_w(sv, sb, true);
}

/* ADD(): the tag, then the value or '*' */
static void add_field(struct strbuf *sb, const char *tag, bool cond, unsigned int width, uint64_t v)
{
	strbuf_puts(sb, tag);
	if (cond)
		strbuf_printf(sb, "%0*llX", (int)width, (unsigned long long)v);
	else
		strbuf_putc(sb, '*');
}

static void usb_one(const struct map_entry *e, unsigned int flags, struct strv *sv,
		    unsigned int prefix, int digits, unsigned int lo, unsigned int hi, unsigned int max)
{
	const uint64_t *v = e->vals, mf = v[U_FLAGS];
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, "usb:");
	add_field(&sb, "v", mf & 0x1, 4, v[U_VENDOR]);
	add_field(&sb, "p", mf & 0x2, 4, v[U_PRODUCT]);
	strbuf_putc(&sb, 'd');
	if (digits > 0)
		strbuf_printf(&sb, "%0*X", digits, prefix);
	if (lo == hi)
		strbuf_printf(&sb, "%X", lo);
	else if (lo > 0 || hi < max) {
		if (lo > 9 || hi < 10) {
			strbuf_printf(&sb, "[%X-%X]", lo, hi);
		} else {
			/* '9' and 'A' are not neighbours in ASCII: two ranges */
			strbuf_printf(&sb, lo < 9 ? "[%X-9" : "[%X", lo);
			strbuf_printf(&sb, hi > 10 ? "A-%X]" : "%X]", hi);
		}
	}
	if (digits < 3)
		strbuf_putc(&sb, '*');
	add_field(&sb, "dc", mf & 0x10, 2, v[U_DC]);
	add_field(&sb, "dsc", mf & 0x20, 2, v[U_DSC]);
	add_field(&sb, "dp", mf & 0x40, 2, v[U_DP]);
	add_field(&sb, "ic", mf & 0x80, 2, v[U_IC]);
	add_field(&sb, "isc", mf & 0x100, 2, v[U_ISC]);
	add_field(&sb, "ip", mf & 0x200, 2, v[U_IP]);
	if (!(flags & MODALIAS_MAP_DIALECT_2_6))
		strbuf_puts(&sb, "in*"); /* usbmap has no bInterfaceNumber column */
	strv_add(sv, &sb);
}

/* file2alias's incbcd(): add inc to a BCD number (plain binary in hex mode),
 * returning the value before. */
static unsigned int bcd_step(unsigned int *bcd, int inc, unsigned int max)
{
	unsigned int before = *bcd, mul = 1;
	unsigned long long dec = 0;

	if (max > 9) {
		*bcd = (unsigned int)((int)*bcd + inc);
		return before;
	}
	for (unsigned int i = 0; i < 4; i++, mul *= 10) {
		unsigned int digit = (*bcd >> (4 * i)) & 0xf;
		dec += (unsigned long long)(digit > 9 ? 9 : digit) * mul;
	}
	dec = (unsigned long long)((long long)dec + inc);
	*bcd = 0;
	mul = 1;
	for (unsigned int i = 0; i < 4; i++, mul *= 10)
		*bcd += (unsigned int)((dec / mul) % 10) << (4 * i);
	return before;
}

static void usb_aliases(const struct map_entry *e, unsigned int flags, struct strv *sv)
{
	const uint64_t *v = e->vals;
	unsigned int lo = v[U_FLAGS] & 0x4 ? (unsigned int)v[U_LO] : 0;
	unsigned int hi = v[U_FLAGS] & 0x8 ? (unsigned int)v[U_HI] : ~0u;
	unsigned int max = 9;

	/* BCD unless a digit of lo or of hi (at most 9999) is not decimal */
	for (unsigned int i = 0; i < 4; i++)
		if (((lo >> (4 * i)) & 0xf) > 9 || (((hi > 0x9999 ? 0x9999 : hi) >> (4 * i)) & 0xf) > 9)
			max = 0xf;
	/* placeholder slots (visor) give no alias */
	if (!(v[U_VENDOR] | v[U_PRODUCT] | v[U_DC] | v[U_IC]))
		return;
	/* the range, digit by digit from the lowest: fixed prefixes and classes */
	for (int digits = 3; lo <= hi; digits--) {
		unsigned int clo = lo & 0xf, chi = hi & 0xf;

		if (chi > max)
			chi = max;
		lo >>= 4;
		hi >>= 4;
		if (lo == hi || digits == 0) {
			usb_one(e, flags, sv, lo, digits, clo, chi, max);
			break;
		}
		if (clo > 0)
			usb_one(e, flags, sv, bcd_step(&lo, 1, max), digits, clo, max, max);
		if (chi < max)
			usb_one(e, flags, sv, bcd_step(&hi, -1, max), digits, 0, chi, max);
	}
}

static void pci_aliases(const struct map_entry *e, struct strv *sv)
{
	static const char *const tags[] = { "v", "d", "sv", "sd" };
	static const char *const ctags[] = { "bc", "sc", "i" };
	struct strbuf sb;

	for (unsigned int b = 0; b < 3; b++) {
		uint64_t m = (e->vals[P_MASK] >> (16 - 8 * b)) & 0xff;
		if (m != 0 && m != 0xff)
			return; /* file2alias: "Can't handle masks" */
	}
	strbuf_init(&sb);
	strbuf_puts(&sb, "pci:");
	for (unsigned int c = 0; c < 4; c++)
		add_field(&sb, tags[c], e->vals[c] != 0xffffffff, 8, e->vals[c]);
	for (unsigned int b = 0; b < 3; b++) {
		unsigned int shift = 16 - 8 * b;
		add_field(&sb, ctags[b], (e->vals[P_MASK] >> shift) & 0xff, 2, (e->vals[P_CLASS] >> shift) & 0xff);
	}
	strv_add(sv, &sb);
}

static void flagged_aliases(const struct map_entry *e, struct strv *sv, const char *prefix,
			    const char *const *tags, const unsigned int *widths)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, prefix);
	for (unsigned int c = 1; c <= 4; c++)
		add_field(&sb, tags[c - 1], e->vals[0] & (1u << (c - 1)), widths[c - 1], e->vals[c]);
	strv_add(sv, &sb);
}

static void serio_aliases(const struct map_entry *e, struct strv *sv)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, "serio:");
	/* the alias order is not the struct's (nor the map's) */
	add_field(&sb, "ty", e->vals[S_TYPE] != 0xff, 2, e->vals[S_TYPE]);
	add_field(&sb, "pr", e->vals[S_PROTO] != 0xff, 2, e->vals[S_PROTO]);
	add_field(&sb, "id", e->vals[S_ID] != 0xff, 2, e->vals[S_ID]);
	add_field(&sb, "ex", e->vals[S_EXTRA] != 0xff, 2, e->vals[S_EXTRA]);
	strv_add(sv, &sb);
}

static void input_aliases(const struct modalias_map *map, const struct map_entry *e, struct strv *sv)
{
	static const char letters[] = "ekramlsfw";
	uint64_t flags = e->vals[IN_FLAGS];
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, "input:");
	add_field(&sb, "b", flags & 1, 4, e->vals[e->off[IN_BUS]]);
	add_field(&sb, "v", flags & 2, 4, e->vals[e->off[IN_VENDOR]]);
	add_field(&sb, "p", flags & 4, 4, e->vals[e->off[IN_PRODUCT]]);
	add_field(&sb, "e", flags & 8, 4, e->vals[e->off[IN_VERSION]]);
	strbuf_putc(&sb, '-');
	for (unsigned int c = IN_EV; c <= IN_SW; c++) {
		strbuf_putc(&sb, letters[c - IN_EV]);
		strbuf_putc(&sb, '*');
		if (!(flags & (0x10u << (c - IN_EV))))
			continue;
		for (unsigned int bit = c == IN_EV + 1 ? INPUT_KEY_MIN_INTERESTING : 0;
		     bit <= input_cols[c].max_bit; bit++)
			if (bitmap_test(map, e, c, bit))
				strbuf_printf(&sb, "%X,*", bit);
	}
	strv_add(sv, &sb);
}

static void pnp_alias(struct strv *sv, uint16_t vendor, uint16_t function, unsigned int flags)
{
	struct strbuf sb;
	char id[8];

	pnp_words_to_id(vendor, function, id);
	strbuf_init(&sb);
	strbuf_printf(&sb, "pnp:d%s*", id);
	strv_add(sv, &sb);
	if (!(flags & MODALIAS_MAP_DIALECT_2_6)) {
		strbuf_init(&sb);
		strbuf_printf(&sb, "acpi*:%s:*", id);
		strv_add(sv, &sb);
	}
}

static void isapnp_aliases(const struct map_entry *e, unsigned int flags, struct strv *sv)
{
	for (unsigned int k = e->off[I_VENDOR]; k < e->off[I_VENDOR + 1]; k++)
		pnp_alias(sv, (uint16_t)e->vals[k],
			  (uint16_t)e->vals[e->off[I_FUNCTION] + (k - e->off[I_VENDOR])], flags);
}

static void of_aliases(const struct map_entry *e, unsigned int flags, struct strv *sv)
{
	struct strbuf sb;

	for (int k = 0; k < 2; k++) {
		strbuf_init(&sb);
		strbuf_printf(&sb, "of:N%sT%s", e->str[0][0] ? e->str[0] : "*",
			      e->str[1][0] ? e->str[1] : "*");
		if (e->str[2][0])
			strbuf_printf(&sb, "%sC%s", e->str[1][0] ? "*" : "", e->str[2]);
		for (size_t i = 0; !sb.oom && i < sb.len; i++)
			if (isspace((unsigned char)sb.buf[i]))
				sb.buf[i] = '_';
		if (flags & MODALIAS_MAP_DIALECT_2_6) {
			/* one alias, with the wildcard */
			strv_add(sv, &sb);
			return;
		}
		/* today: the alias as is, then with "C*" for further compatibles */
		if (k == 1)
			strbuf_putc(&sb, 'C');
		strv_add_w(sv, &sb, k == 1);
	}
}

MODALIAS_EXPORT int modalias_map_get_aliases(const struct modalias_map *map, unsigned int index,
					     unsigned int flags, char ***ret)
{
	static const char *const ieee1394_tags[] = { "ven", "mo", "sp", "ver" };
	static const unsigned int ieee1394_widths[] = { 8, 8, 8, 8 };
	static const char *const ccw_tags[] = { "t", "m", "dt", "dm" };
	static const unsigned int ccw_widths[] = { 4, 2, 4, 2 };
	struct strv sv = { 0 };
	const struct map_entry *e;

	if (!map || !ret)
		return -EINVAL;
	if (index >= map->n)
		return -ERANGE;
	e = &map->entries[index];
	switch (map->type) {
	case MODALIAS_MAP_USB:
		usb_aliases(e, flags, &sv);
		break;
	case MODALIAS_MAP_PCI:
		pci_aliases(e, &sv);
		break;
	case MODALIAS_MAP_IEEE1394:
		flagged_aliases(e, &sv, "ieee1394:", ieee1394_tags, ieee1394_widths);
		break;
	case MODALIAS_MAP_CCW:
		flagged_aliases(e, &sv, "ccw:", ccw_tags, ccw_widths);
		break;
	case MODALIAS_MAP_ISAPNP:
		isapnp_aliases(e, flags, &sv);
		break;
	case MODALIAS_MAP_INPUT:
		input_aliases(map, e, &sv);
		break;
	case MODALIAS_MAP_OF:
		of_aliases(e, flags, &sv);
		break;
	case MODALIAS_MAP_SERIO:
		serio_aliases(e, &sv);
		break;
	}
	if (!sv.oom && !sv.v) {
		sv.v = calloc(1, sizeof(*sv.v));
		if (!sv.v)
			sv.oom = true;
	}
	if (sv.oom) {
		for (unsigned int i = 0; sv.v && i < sv.n; i++)
			free(sv.v[i]);
		free(sv.v);
		return -ENOMEM;
	}
	*ret = sv.v;
	return (int)sv.n;
}

/* ---- maps into alias tables ------------------------------------------------------ */

MODALIAS_EXPORT int modalias_table_load_map(struct modalias_table *table,
					    const struct modalias_map *map, unsigned int flags)
{
	uint32_t origin;
	unsigned int none = 0;
	int r;

	if (!table || !map)
		return -EINVAL;
	r = table_origin_register(table, map->name, &origin);
	if (r < 0)
		return r;
	for (unsigned int i = 0; i < map->n; i++) {
		char **v;
		int n = modalias_map_get_aliases(map, i, flags, &v);

		if (n < 0)
			return n;
		if (n == 0) {
			info(map->ctx, "%s:%u: %.*s: the row gives no alias (as file2alias)\n", map->name,
			     map->entries[i].line, LOG_ECHO(map->entries[i].module));
			none++;
		}
		for (int k = 0; r >= 0 && k < n; k++)
			r = table_add_alias(table, v[k], map->entries[i].module, origin,
					    map->entries[i].line);
		for (int k = 0; k < n; k++)
			free(v[k]);
		free(v);
		if (r == -ENOMEM)
			return r;
		r = 0;
	}
	return (int)none;
}

/* ---- alias tables into maps -------------------------------------------------------- */

/* Reads the tag/value fields of a file2alias pattern: each value is '*'
 * or exactly width upper-case hex digits. */
struct pat {
	const char *s;
	size_t pos;
};

static bool pat_lit(struct pat *p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(p->s + p->pos, lit, n) != 0)
		return false;
	p->pos += n;
	return true;
}

/* 1 value, 0 wildcard, -1 not of the form */
static int pat_field(struct pat *p, const char *tag, unsigned int width, uint64_t *v)
{
	if (!pat_lit(p, tag))
		return -1;
	if (p->s[p->pos] == '*') {
		p->pos++;
		return 0;
	}
	*v = 0;
	for (unsigned int i = 0; i < width; i++) {
		char c = p->s[p->pos + i];
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')))
			return -1;
		*v = (*v << 4) | (uint64_t)(c <= '9' ? c - '0' : c - 'A' + 10);
	}
	p->pos += width;
	return 1;
}

static bool pat_end(struct pat *p)
{
	return p->s[p->pos] == '\0' || (p->s[p->pos] == '*' && p->s[p->pos + 1] == '\0');
}

static bool write_usb(FILE *out, const char *mod, const char *s)
{
	static const char *const tags[] = { "dc", "dsc", "dp", "ic", "isc", "ip" };
	struct pat p = { s, 4 };
	uint64_t v[12] = { 0 }, x;
	unsigned int flags = 0;
	int r;

	if ((r = pat_field(&p, "v", 4, &x)) < 0)
		return false;
	if (r)
		flags |= 0x1, v[U_VENDOR] = x;
	if ((r = pat_field(&p, "p", 4, &x)) < 0)
		return false;
	if (r)
		flags |= 0x2, v[U_PRODUCT] = x;
	if (!pat_lit(&p, "d"))
		return false;
	/* "d*", "dXXXX", or a prefix "dXX*" (the range it matches as a glob) */
	{
		unsigned int n = 0;
		uint64_t pre = 0;

		while (n < 4 && isxdigit((unsigned char)p.s[p.pos + n]) && !islower((unsigned char)p.s[p.pos + n]))
			n++;
		if (n && parse_hex(p.s + p.pos, n, 0xffff, &pre) < 0)
			return false;
		p.pos += n;
		if (n < 4) {
			if (p.s[p.pos] != '*')
				return false;
			p.pos++;
		}
		if (n > 0) {
			flags |= 0xc;
			v[U_LO] = pre << (4 * (4 - n));
			v[U_HI] = v[U_LO] | (((uint64_t)1 << (4 * (4 - n))) - 1);
		}
	}
	for (unsigned int c = 0; c < 6; c++) {
		if ((r = pat_field(&p, tags[c], 2, &x)) < 0)
			return false;
		if (r)
			flags |= 0x10u << c, v[U_DC + c] = x;
	}
	if (pat_lit(&p, "in")) {
		if (p.s[p.pos] != '*')
			return false; /* no bInterfaceNumber column */
		p.pos++;
	}
	if (!pat_end(&p))
		return false;
	fprintf(out, "%-20s 0x%04x      0x%04x   0x%04x    0x%04x       0x%04x       0x%02x         0x%02x"
		     "            0x%02x            0x%02x            0x%02x               0x%02x               0x0\n",
		mod, flags, (unsigned int)v[U_VENDOR], (unsigned int)v[U_PRODUCT], (unsigned int)v[U_LO],
		(unsigned int)v[U_HI], (unsigned int)v[U_DC], (unsigned int)v[U_DSC], (unsigned int)v[U_DP],
		(unsigned int)v[U_IC], (unsigned int)v[U_ISC], (unsigned int)v[U_IP]);
	return true;
}

static bool write_pci(FILE *out, const char *mod, const char *s)
{
	static const char *const tags[] = { "v", "d", "sv", "sd" };
	static const char *const ctags[] = { "bc", "sc", "i" };
	struct pat p = { s, 4 };
	uint64_t v[4], x, cls = 0, mask = 0;
	int r;

	for (unsigned int c = 0; c < 4; c++) {
		if ((r = pat_field(&p, tags[c], 8, &x)) < 0)
			return false;
		v[c] = r ? x : 0xffffffff;
	}
	for (unsigned int b = 0; b < 3; b++) {
		if ((r = pat_field(&p, ctags[b], 2, &x)) < 0)
			return false;
		if (r) {
			cls |= x << (16 - 8 * b);
			mask |= (uint64_t)0xff << (16 - 8 * b);
		}
	}
	if (!pat_end(&p))
		return false;
	fprintf(out, "%-20s 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x0\n", mod, (unsigned int)v[0],
		(unsigned int)v[1], (unsigned int)v[2], (unsigned int)v[3], (unsigned int)cls,
		(unsigned int)mask);
	return true;
}

static bool write_flagged(FILE *out, const char *mod, const char *s, enum modalias_map_type type)
{
	static const char *const ieee1394_tags[] = { "ven", "mo", "sp", "ver" };
	static const unsigned int ieee1394_widths[] = { 8, 8, 8, 8 };
	static const char *const ccw_tags[] = { "t", "m", "dt", "dm" };
	static const unsigned int ccw_widths[] = { 4, 2, 4, 2 };
	bool ccw = type == MODALIAS_MAP_CCW;
	struct pat p = { s, ccw ? 4 : 9 };
	uint64_t v[4] = { 0 }, x;
	unsigned int flags = 0;

	for (unsigned int c = 0; c < 4; c++) {
		int r;

		if ((r = pat_field(&p, ccw ? ccw_tags[c] : ieee1394_tags[c],
				   ccw ? ccw_widths[c] : ieee1394_widths[c], &x)) < 0)
			return false;
		if (r)
			flags |= 1u << c, v[c] = x;
	}
	if (!pat_end(&p))
		return false;
	if (ccw)
		fprintf(out, "%-20s 0x%04x      0x%04x  0x%02x      0x%04x  0x%02x\n", mod, flags,
			(unsigned int)v[0], (unsigned int)v[1], (unsigned int)v[2], (unsigned int)v[3]);
	else
		fprintf(out, "%-20s 0x%08x  0x%06x  0x%06x 0x%06x     0x%06x\n", mod, flags,
			(unsigned int)v[0], (unsigned int)v[1], (unsigned int)v[2], (unsigned int)v[3]);
	return true;
}

static bool write_serio(FILE *out, const char *mod, const char *s)
{
	static const char *const tags[] = { "ty", "pr", "id", "ex" };
	struct pat p = { s, 6 };
	uint64_t v[4], x;

	for (unsigned int c = 0; c < 4; c++) {
		int r;

		if ((r = pat_field(&p, tags[c], 2, &x)) < 0)
			return false;
		v[c] = r ? x : 0xff;
	}
	if (!pat_end(&p))
		return false;
	/* map order: type extra id proto */
	fprintf(out, "%-20s 0x%02x 0x%02x  0x%02x 0x%02x\n", mod, (unsigned int)v[0], (unsigned int)v[3],
		(unsigned int)v[2], (unsigned int)v[1]);
	return true;
}

static bool of_literal(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strchr("*?[]\\ \t", s[i]))
			return false;
	return n > 0;
}

static bool write_of(FILE *out, const char *mod, const char *s)
{
	const char *name = s + 4, *t, *c = NULL, *end = s + strlen(s);
	char *f[3] = { NULL, NULL, NULL };
	size_t tn;
	bool ok = false;

	if (strncmp(s, "of:N", 4) != 0 || !(t = strchr(name, 'T')))
		return false;
	/* the "C*" twin of an alias says the same */
	if (end - s >= 2 && end[-1] == '*' && end[-2] == 'C')
		end -= 2;
	c = memchr(t, 'C', (size_t)(end - t));
	tn = (size_t)((c ? c : end) - t - 1);
	if (c && tn > 1 && t[tn] == '*')
		tn--; /* "Ttype*Ccompat" */
	if (t - name == 1 && name[0] == '*')
		f[0] = strdup("*");
	else if (of_literal(name, (size_t)(t - name)))
		f[0] = strndup(name, (size_t)(t - name));
	if (tn == 1 && t[1] == '*')
		f[1] = strdup("*");
	else if (of_literal(t + 1, tn))
		f[1] = strndup(t + 1, tn);
	if (!c)
		f[2] = strdup("*");
	else if (of_literal(c + 1, (size_t)(end - c - 1)))
		f[2] = strndup(c + 1, (size_t)(end - c - 1));
	if (f[0] && f[1] && f[2]) {
		fprintf(out, "%-20s %-20s %-20s %s\n", mod, f[0], f[1], f[2]);
		ok = true;
	}
	for (int i = 0; i < 3; i++)
		free(f[i]);
	return ok;
}

MODALIAS_EXPORT int modalias_table_write_map(struct modalias_table *t, int type, FILE *out)
{
	const struct layer *ly;
	const char *prefix;
	unsigned int lost = 0, last_written = UINT32_MAX;
	size_t plen;
	char *last = NULL;

	if (!t || !out || !type_valid(type))
		return -EINVAL;
	if (type == MODALIAS_MAP_ISAPNP || type == MODALIAS_MAP_INPUT) {
		err(t->ctx, "writing a %s map is not supported\n", types[type].name);
		return -EOPNOTSUPP;
	}
	prefix = type == MODALIAS_MAP_IEEE1394 ? "ieee1394:" : type == MODALIAS_MAP_CCW ? "ccw:" :
		 type == MODALIAS_MAP_SERIO ? "serio:" : type == MODALIAS_MAP_OF ? "of:" :
		 type == MODALIAS_MAP_PCI ? "pci:" : "usb:";
	plen = strlen(prefix);
	fputs(types[type].header, out);
	ly = &t->layers[LAYER_ALIAS];
	for (unsigned int i = 0; i < ly->n; i++) {
		const struct pattern *pt = &ly->patterns[i];
		const char *s = t->pool.buf + pt->str, *mod = table_module_name(t, pt->module);
		bool ok;

		if (strncmp(s, prefix, plen) != 0)
			continue;
		switch (type) {
		case MODALIAS_MAP_USB:
			ok = write_usb(out, mod, s);
			break;
		case MODALIAS_MAP_PCI:
			ok = write_pci(out, mod, s);
			break;
		case MODALIAS_MAP_SERIO:
			ok = write_serio(out, mod, s);
			break;
		case MODALIAS_MAP_OF:
			/* "…Cfoo" and its twin "…CfooC*" give one row */
			if (last && last_written == pt->module) {
				size_t n = strlen(last);
				if (strncmp(s, last, n) == 0 && strcmp(s + n, "C*") == 0)
					continue;
			}
			ok = write_of(out, mod, s);
			free(last);
			last = strdup(s);
			last_written = pt->module;
			break;
		default:
			ok = write_flagged(out, mod, s, (enum modalias_map_type)type);
			break;
		}
		if (!ok) {
			info(t->ctx, "%s:%u: '%.*s' (%.*s) cannot be written as a %s map row\n",
			     table_origin_name(t, WHERE_ORIGIN(pt->where)), WHERE_LINE(pt->where), LOG_ECHO(s),
			     LOG_ECHO(mod), types[type].name);
			lost++;
		}
	}
	free(last);
	if (fflush(out) != 0 || ferror(out)) {
		err(t->ctx, "cannot write the %s map\n", types[type].name);
		return -EIO;
	}
	if (lost)
		info(t->ctx, "%u %s patterns cannot be expressed in a %s map (brackets, globs, interface numbers)\n",
		     lost, prefix, types[type].name);
	return (int)lost;
}
