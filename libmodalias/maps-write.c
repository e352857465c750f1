/*
 * libmodalias - legacy map files written from an alias table: each
 * modules.alias pattern of a map type's bus that is of file2alias' plain
 * form (every field a value or '*') read back field by field, with the
 * tags and widths of the column tables, and written as the row
 * module-init-tools wrote.  The one map file that reads an alias table's
 * internals (table-private.h: its patterns, module and origin names); it
 * may not create map objects, parse map files, or change the table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps-private.h"
#include "table-private.h"

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

/* pat_field() for column c of the type: its tag and width */
static int pat_col(struct pat *p, const struct map_type_desc *td, unsigned int c, uint64_t *v)
{
	return pat_field(p, td->cols[c].tag, td->cols[c].width, v);
}

static bool pat_end(struct pat *p)
{
	return p->s[p->pos] == '\0' || (p->s[p->pos] == '*' && p->s[p->pos + 1] == '\0');
}

/* A pattern of the type's bus ("bus:…"), the position after the ':' */
static struct pat pat_start(const struct map_type_desc *td, const char *s)
{
	return (struct pat){ s, strlen(td->bus) + 1 };
}

/* Columns first … last of a flagged type, each its value (flagged) or '*' */
static bool pat_flagged(struct pat *p, const struct map_type_desc *td, unsigned int first,
			unsigned int last, uint64_t *v, uint64_t *flags)
{
	for (unsigned int c = first; c <= last; c++) {
		uint64_t x;
		int r = pat_col(p, td, c, &x);

		if (r < 0)
			return false;
		if (r)
			*flags |= map_col_flag(c), v[c] = x;
	}
	return true;
}

static bool write_usb(FILE *out, const char *mod, const char *s)
{
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_USB];
	struct pat p = pat_start(td, s);
	uint64_t v[U_INFO + 1] = { 0 }, flags = 0;

	if (!pat_flagged(&p, td, U_VENDOR, U_PRODUCT, v, &flags))
		return false;
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
			flags |= map_col_flag(U_LO) | map_col_flag(U_HI);
			v[U_LO] = pre << (4 * (4 - n));
			v[U_HI] = v[U_LO] | (((uint64_t)1 << (4 * (4 - n))) - 1);
		}
	}
	if (!pat_flagged(&p, td, U_DC, U_IP, v, &flags))
		return false;
	if (pat_lit(&p, "in")) {
		if (p.s[p.pos] != '*')
			return false; /* no bInterfaceNumber column */
		p.pos++;
	}
	if (!pat_end(&p))
		return false;
	fprintf(out, "%-20s 0x%04x      0x%04x   0x%04x    0x%04x       0x%04x       0x%02x         0x%02x"
		     "            0x%02x            0x%02x            0x%02x               0x%02x               0x0\n",
		mod, (unsigned int)flags, (unsigned int)v[U_VENDOR], (unsigned int)v[U_PRODUCT], (unsigned int)v[U_LO],
		(unsigned int)v[U_HI], (unsigned int)v[U_DC], (unsigned int)v[U_DSC], (unsigned int)v[U_DP],
		(unsigned int)v[U_IC], (unsigned int)v[U_ISC], (unsigned int)v[U_IP]);
	return true;
}

static bool write_pci(FILE *out, const char *mod, const char *s)
{
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_PCI];
	struct pat p = pat_start(td, s);
	uint64_t v[P_SUBDEVICE + 1], x, cls = 0, mask = 0;
	int r;

	for (unsigned int c = P_VENDOR; c <= P_SUBDEVICE; c++) {
		if ((r = pat_col(&p, td, c, &x)) < 0)
			return false;
		v[c] = r ? x : 0xffffffff;
	}
	for (unsigned int b = 0; b < ARRAY_SIZE(map_pci_class_bytes); b++) {
		const struct map_pci_class_byte *cb = &map_pci_class_bytes[b];

		if ((r = pat_field(&p, cb->tag, 2, &x)) < 0)
			return false;
		if (r) {
			cls |= x << cb->shift;
			mask |= (uint64_t)0xff << cb->shift;
		}
	}
	if (!pat_end(&p))
		return false;
	fprintf(out, "%-20s 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x0\n", mod, (unsigned int)v[0],
		(unsigned int)v[1], (unsigned int)v[2], (unsigned int)v[3], (unsigned int)cls,
		(unsigned int)mask);
	return true;
}

/* ieee1394, ccw: every column after match_flags */
static bool write_flagged(FILE *out, const char *mod, const char *s, enum modalias_map_type type)
{
	const struct map_type_desc *td = &map_types[type];
	struct pat p = pat_start(td, s);
	uint64_t v[5] = { 0 }, flags = 0;

	if (!pat_flagged(&p, td, 1, 4, v, &flags) || !pat_end(&p))
		return false;
	if (type == MODALIAS_MAP_CCW)
		fprintf(out, "%-20s 0x%04x      0x%04x  0x%02x      0x%04x  0x%02x\n", mod, (unsigned int)flags,
			(unsigned int)v[1], (unsigned int)v[2], (unsigned int)v[3], (unsigned int)v[4]);
	else
		fprintf(out, "%-20s 0x%08x  0x%06x  0x%06x 0x%06x     0x%06x\n", mod, (unsigned int)flags,
			(unsigned int)v[1], (unsigned int)v[2], (unsigned int)v[3], (unsigned int)v[4]);
	return true;
}

static bool write_serio(FILE *out, const char *mod, const char *s)
{
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_SERIO];
	struct pat p = pat_start(td, s);
	uint64_t v[4], x;

	/* the pattern's order is not the map's */
	for (unsigned int k = 0; k < ARRAY_SIZE(map_serio_alias_order); k++) {
		unsigned int c = map_serio_alias_order[k];
		int r;

		if ((r = pat_col(&p, td, c, &x)) < 0)
			return false;
		v[c] = r ? x : 0xff;
	}
	if (!pat_end(&p))
		return false;
	fprintf(out, "%-20s 0x%02x 0x%02x  0x%02x 0x%02x\n", mod, (unsigned int)v[S_TYPE],
		(unsigned int)v[S_EXTRA], (unsigned int)v[S_ID], (unsigned int)v[S_PROTO]);
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
	const struct map_type_desc *td;
	const struct layer *ly;
	unsigned int lost = 0, last_written = UINT32_MAX;
	char prefix[16], *last = NULL;
	size_t plen;

	if (!t || !out || !map_type_valid(type))
		return -EINVAL;
	td = &map_types[type];
	if (type == MODALIAS_MAP_ISAPNP || type == MODALIAS_MAP_INPUT) {
		err(t->ctx, "writing a %s map is not supported\n", td->name);
		return -EOPNOTSUPP;
	}
	snprintf(prefix, sizeof(prefix), "%s:", td->bus);
	plen = strlen(prefix);
	fputs(td->head, out);
	fputs(td->head_cols, out);
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
			     LOG_ECHO(mod), td->name);
			lost++;
		}
	}
	free(last);
	if (fflush(out) != 0 || ferror(out)) {
		err(t->ctx, "cannot write the %s map\n", td->name);
		return -EIO;
	}
	if (lost)
		info(t->ctx, "%u %s patterns cannot be expressed in a %s map (brackets, globs, interface numbers)\n",
		     lost, prefix, td->name);
	return (int)lost;
}
