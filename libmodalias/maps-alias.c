/*
 * libmodalias - legacy map files: their rows as modules.alias patterns,
 * as the kernel's scripts/mod/file2alias.c writes them from the device
 * tables (and as 2.6 kernels did, MODALIAS_MAP_DIALECT_2_6), each field
 * with its tag and width from the column tables; and a map's patterns
 * added to an alias table through table.c's table_add_alias().  It may not
 * parse, match, write map files, or reach into a table's internals.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "maps-private.h"

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

/* A pattern's start: "bus:" */
static void pattern_init(struct strbuf *sb, const struct map_type_desc *td)
{
	strbuf_init(sb);
	strbuf_printf(sb, "%s:", td->bus);
}

/* Columns first … last of a flagged type: each its tag, then its value
 * where match_flags flags it, else '*' */
static void add_flagged(struct strbuf *sb, const struct map_type_desc *td, const struct map_entry *e,
			unsigned int first, unsigned int last)
{
	for (unsigned int c = first; c <= last; c++)
		add_field(sb, td->cols[c].tag, e->vals[0] & map_col_flag(c), td->cols[c].width,
			  e->vals[e->off[c]]);
}

static void usb_one(const struct map_entry *e, unsigned int flags, struct strv *sv,
		    unsigned int prefix, int digits, unsigned int lo, unsigned int hi, unsigned int max)
{
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_USB];
	struct strbuf sb;

	pattern_init(&sb, td);
	add_flagged(&sb, td, e, U_VENDOR, U_PRODUCT);
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
	add_flagged(&sb, td, e, U_DC, U_IP);
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
	unsigned int lo = (v[U_FLAGS] & map_col_flag(U_LO)) ? (unsigned int)v[U_LO] : 0;
	unsigned int hi = (v[U_FLAGS] & map_col_flag(U_HI)) ? (unsigned int)v[U_HI] : ~0u;
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
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_PCI];
	struct strbuf sb;

	for (unsigned int b = 0; b < ARRAY_SIZE(map_pci_class_bytes); b++) {
		uint64_t m = (e->vals[P_MASK] >> map_pci_class_bytes[b].shift) & 0xff;
		if (m != 0 && m != 0xff)
			return; /* file2alias: "Can't handle masks" */
	}
	pattern_init(&sb, td);
	for (unsigned int c = P_VENDOR; c <= P_SUBDEVICE; c++)
		add_field(&sb, td->cols[c].tag, e->vals[c] != 0xffffffff, td->cols[c].width, e->vals[c]);
	for (unsigned int b = 0; b < ARRAY_SIZE(map_pci_class_bytes); b++) {
		unsigned int shift = map_pci_class_bytes[b].shift;
		add_field(&sb, map_pci_class_bytes[b].tag, (e->vals[P_MASK] >> shift) & 0xff, 2,
			  (e->vals[P_CLASS] >> shift) & 0xff);
	}
	strv_add(sv, &sb);
}

/* ieee1394, ccw: every column after match_flags */
static void flagged_aliases(const struct map_type_desc *td, const struct map_entry *e, struct strv *sv)
{
	struct strbuf sb;

	pattern_init(&sb, td);
	add_flagged(&sb, td, e, 1, td->n_cols - 1);
	strv_add(sv, &sb);
}

static void serio_aliases(const struct map_entry *e, struct strv *sv)
{
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_SERIO];
	struct strbuf sb;

	pattern_init(&sb, td);
	/* the alias order is not the struct's (nor the map's) */
	for (unsigned int k = 0; k < ARRAY_SIZE(map_serio_alias_order); k++) {
		unsigned int c = map_serio_alias_order[k];
		add_field(&sb, td->cols[c].tag, e->vals[c] != 0xff, td->cols[c].width, e->vals[c]);
	}
	strv_add(sv, &sb);
}

static void input_aliases(const struct modalias_map *map, const struct map_entry *e, struct strv *sv)
{
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_INPUT];
	uint64_t flags = e->vals[IN_FLAGS];
	struct strbuf sb;

	pattern_init(&sb, td);
	add_flagged(&sb, td, e, IN_BUS, IN_VERSION);
	strbuf_putc(&sb, '-');
	for (unsigned int c = IN_EV; c <= IN_SW; c++) {
		strbuf_puts(&sb, td->cols[c].tag);
		strbuf_putc(&sb, '*');
		if (!(flags & map_col_flag(c)))
			continue;
		for (unsigned int bit = c == IN_KEY ? INPUT_KEY_MIN_INTERESTING : 0;
		     bit <= td->cols[c].max_bit; bit++)
			if (map_bitmap_test(map, e, c, bit))
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

/* Row e gave no pattern: why, one line (as file2alias's warning, where it
 * warns; a row it skips without a word, at LOG_INFO) */
static void say_no_alias(const struct modalias_map *map, const struct map_entry *e)
{
	const uint64_t *v = e->vals;

	switch (map->type) {
	case MODALIAS_MAP_PCI:
		err(map->ctx, "%s:%u: %.*s: class_mask 0x%08llx has a byte neither 00 nor ff, which no "
			      "alias can say (file2alias: \"Can't handle masks\"): no alias, the row skipped\n",
		    map->name, e->line, LOG_ECHO(e->module), (unsigned long long)v[P_MASK]);
		return;
	case MODALIAS_MAP_USB:
		if (!(v[U_VENDOR] | v[U_PRODUCT] | v[U_DC] | v[U_IC]))
			info(map->ctx, "%s:%u: %.*s: a placeholder row (idVendor, idProduct, bDeviceClass and "
				       "bInterfaceClass 0), which file2alias skips: no alias\n",
			     map->name, e->line, LOG_ECHO(e->module));
		else
			err(map->ctx, "%s:%u: %.*s: bcdDevice_lo 0x%04llx is above bcdDevice_hi 0x%04llx, a range "
				      "of no device: no alias, the row skipped\n",
			    map->name, e->line, LOG_ECHO(e->module), (unsigned long long)v[U_LO],
			    (unsigned long long)v[U_HI]);
		return;
	default:
		/* the one other row without patterns */
		info(map->ctx, "%s:%u: %.*s: an ISAPnP card without devices, of which file2alias makes no "
			       "alias: no alias\n", map->name, e->line, LOG_ECHO(e->module));
		return;
	}
}

MODALIAS_EXPORT int modalias_map_get_aliases(const struct modalias_map *map, unsigned int index,
					     unsigned int flags, char ***ret)
{
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
	case MODALIAS_MAP_CCW:
		flagged_aliases(&map_types[map->type], e, &sv);
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
		say_no_alias(map, e);
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

/* ---- a map into an alias table ----------------------------------------------------- */

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
		if (n == 0)
			none++; /* said by modalias_map_get_aliases() */
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
