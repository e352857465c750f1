/*
 * libmodalias - the buses: the table of every bus the kernel writes a
 * modalias for (its name, its prefix, its fields from bus-fields.h), how
 * each bus whose string is not the generic tag/value sequence writes and
 * reads it (drivers/…, the device side of file2alias), and the public
 * questions about buses and their fields.
 *
 * It keeps values through fields.c and calls nothing above it (dev.c,
 * env.c, sysfs.c); a field is named by its index, never by a number.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bus-private.h"
#include "libmodalias-private.h"

/* ---- helpers of the formats --------------------------------------------- */

static int expect(const struct modalias_dev *dev, const char *s, size_t len, size_t *pos,
		  const char *lit, int field)
{
	size_t n = strlen(lit);

	if (len - *pos < n || memcmp(s + *pos, lit, n) != 0)
		return parse_error(dev, field, *pos, "unexpected characters");
	*pos += n;
	return 0;
}

static bool upper_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

/* A run of "X," items (input bitmaps) or ",XXXX" items (cpu features),
 * strictly ascending, as the kernel walks the bits. */
static int parse_numlist(struct modalias_dev *dev, unsigned int f, const char *s,
			 size_t len, size_t *pos, bool leading_comma)
{
	const struct field_desc *fd = &dev->bus->fields[f];
	const int fe = (int)f; /* for parse_error() */
	bool first = true;
	uint64_t last = 0;

	for (;;) {
		size_t start = *pos + (leading_comma ? 1 : 0), n = 0;
		uint64_t num;
		int r;

		if (leading_comma && (start > len || s[*pos] != ','))
			return 0;
		while (start + n < len && upper_hex(s[start + n]))
			n++;
		if (n == 0) {
			if (leading_comma)
				return parse_error(dev, fe, start, "hexadecimal digits missing");
			return 0;
		}
		if (fd->width && n != fd->width)
			return parse_error(dev, fe, start, "wrong number of digits");
		if (!fd->width && n > 1 && s[start] == '0')
			return parse_error(dev, fe, start, "leading zero");
		if (!leading_comma && (start + n >= len || s[start + n] != ','))
			return parse_error(dev, fe, start + n, "',' missing");
		r = parse_hex(s + start, n, UINT32_MAX, &num);
		if (r < 0)
			return parse_error(dev, fe, start, "number too large");
		if (!first && num <= last)
			return parse_error(dev, fe, start, "bits out of order");
		r = dev_put_num(dev, f, num, true);
		if (r == -ERANGE)
			return parse_error(dev, fe, start, "bit out of range");
		if (r < 0)
			return r;
		first = false;
		last = num;
		*pos = start + n + (leading_comma ? 0 : 1);
	}
}

static void format_numlist(const struct modalias_dev *dev, unsigned int f,
			   struct strbuf *sb, bool leading_comma)
{
	const struct fval *v = dev_val(dev, f);

	for (unsigned int i = 0; i < v->n; i++) {
		if (leading_comma)
			strbuf_putc(sb, ',');
		strbuf_puts(sb, v->items[i].text);
		if (!leading_comma)
			strbuf_putc(sb, ',');
	}
}

/* ---- input ------------------------------------------------------------ */

static int input_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	int r = dev_format_generic(dev, sb, INPUT_BUSTYPE, INPUT_FIRST_BITMAP);

	if (r < 0)
		return r;
	strbuf_putc(sb, '-');
	for (unsigned int f = INPUT_FIRST_BITMAP; f <= INPUT_LAST_BITMAP; f++) {
		strbuf_puts(sb, dev->bus->fields[f].tag);
		format_numlist(dev, f, sb, false);
		if (f == INPUT_KEY && strcmp(dev_text(dev, INPUT_TRUNCATED, "0"), "1") == 0)
			strbuf_puts(sb, "+,");
	}
	return sb->oom ? -ENOMEM : 0;
}

static int input_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	int r;

	r = dev_parse_generic(dev, s, len, INPUT_BUSTYPE, INPUT_FIRST_BITMAP, &pos);
	if (r < 0)
		return r;
	r = expect(dev, s, len, &pos, "-", NO_FIELD);
	for (unsigned int f = INPUT_FIRST_BITMAP; r == 0 && f <= INPUT_LAST_BITMAP; f++) {
		r = expect(dev, s, len, &pos, dev->bus->fields[f].tag, (int)f);
		if (r == 0)
			r = parse_numlist(dev, f, s, len, &pos, false);
		if (r == 0 && f == INPUT_KEY && len - pos >= 2 && memcmp(s + pos, "+,", 2) == 0) {
			r = dev_put_num(dev, INPUT_TRUNCATED, 1, false);
			pos += 2;
		}
	}
	if (r == 0 && pos != len)
		r = parse_error(dev, NO_FIELD, pos, "trailing characters");
	return r;
}

/* ---- of --------------------------------------------------------------- */

static int of_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	const struct fval *c = dev_val(dev, OF_COMPATIBLE);

	strbuf_putc(sb, 'N');
	strbuf_puts(sb, dev_text(dev, OF_NAME, ""));
	strbuf_putc(sb, 'T');
	strbuf_puts(sb, dev_text(dev, OF_TYPE, "(null)"));
	for (unsigned int i = 0; i < c->n; i++) {
		strbuf_putc(sb, 'C');
		/* the kernel turns white space in compatibles into '_' */
		for (const char *p = c->items[i].text; *p; p++)
			strbuf_putc(sb, isspace((unsigned char)*p) ? '_' : *p);
	}
	return sb->oom ? -ENOMEM : 0;
}

/* Whether a compatible starts at p: a 'C' followed by a lower-case letter
 * (vendor prefixes are lower case), or by a digit or an upper-case letter
 * when a ',' comes before the next 'C' ("CSUNW,hme"), so that the 'C' of
 * "nxp,PCF8563" or "fsl,MPC8572DS" stays inside its compatible; or a final
 * 'C' (an empty compatible).  of_parse() applies the same rule. */
static bool of_compat_split(const char *s, size_t len, size_t p)
{
	unsigned char c;

	if (s[p] != 'C')
		return false;
	if (p + 1 == len)
		return true; /* an empty compatible */
	c = (unsigned char)s[p + 1];
	if (islower(c))
		return true;
	if (!isdigit(c) && !isupper(c))
		return false;
	for (size_t q = p + 1; q < len && s[q] != 'C'; q++)
		if (s[q] == ',')
			return true;
	return false;
}

/* How much a type looks like one the kernel writes: "(null)" (or the
 * older "<NULL>") when the node has no device_type, empty for ACPI's
 * PRP0001 devices, else a device_type ("serial", "cpu", "pci"). */
static int of_type_score(const char *t, size_t n, size_t n_odd)
{
	if (n == 6 && (memcmp(t, "(null)", 6) == 0 || memcmp(t, "<NULL>", 6) == 0))
		return 3;
	if (n == 0)
		return 2;
	return n_odd == 0 ? 1 : 0;
}

static bool of_type_odd(char c)
{
	return !islower((unsigned char)c) && !isdigit((unsigned char)c) && !strchr("-_,.+", c);
}

/* of:N<name>T<type>C<compatible>C<compatible>…, where the kernel puts any
 * character in the name and the type (drivers/of/module.c of_modalias()),
 * so the split is chosen: the type runs from a 'T' to the first
 * compatible (or the end), and of the 'T's the one whose type looks most
 * like a type (of_type_score()) is taken, the leftmost of equals.  One
 * pass from the right: linear in the length. */
static int of_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t t = 0, c = len, next_split = len, n_odd = 0, pos;
	int best = -1, r;
	bool comma = false;

	if (len == 0 || s[0] != 'N')
		return parse_error(dev, OF_NAME, 0, "'N' missing");
	for (size_t i = len; i-- > 1;) {
		/* is i a 'T' whose type is s[i+1, next_split)? */
		if (s[i] == 'T') {
			int score = of_type_score(s + i + 1, next_split - i - 1, n_odd);
			if (score >= best) {
				best = score;
				t = i;
				c = next_split;
			}
		}
		/* then s[i] as part of a type that starts further left */
		if (s[i] == 'C' && (i + 1 == len || islower((unsigned char)s[i + 1]) ||
		     ((isdigit((unsigned char)s[i + 1]) || isupper((unsigned char)s[i + 1])) && comma))) {
			next_split = i;
			n_odd = 0;
		} else {
			n_odd += of_type_odd(s[i]);
		}
		if (s[i] == 'C')
			comma = false;
		else if (s[i] == ',')
			comma = true;
	}
	if (best < 0)
		return parse_error(dev, OF_TYPE, len, "'T' missing");
	if ((r = dev_put_text(dev, OF_NAME, s + 1, t - 1, false)) < 0 ||
	    (r = dev_put_text(dev, OF_TYPE, s + t + 1, c - t - 1, false)) < 0)
		return r;
	pos = c;
	while (pos < len) {
		size_t end = pos + 1;

		while (end < len && !of_compat_split(s, len, end))
			end++;
		/* the kernel writes white space in compatibles as '_' */
		for (size_t i = pos + 1; i < end; i++)
			if (isspace((unsigned char)s[i]))
				return parse_error(dev, OF_COMPATIBLE, i, "white space");
		r = dev_put_text(dev, OF_COMPATIBLE, s + pos + 1, end - pos - 1, true);
		if (r < 0)
			return r;
		pos = end;
	}
	return 0;
}

/* ---- acpi ------------------------------------------------------------- */

static int acpi_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	const struct fval *v = dev_val(dev, ACPI_ID);

	for (unsigned int i = 0; i < v->n; i++) {
		strbuf_puts(sb, v->items[i].text);
		strbuf_putc(sb, ':');
	}
	return sb->oom ? -ENOMEM : 0;
}

static int acpi_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;

	if (len == 0)
		return parse_error(dev, ACPI_ID, 0, "no id");
	while (pos < len) {
		const char *colon = memchr(s + pos, ':', len - pos);
		int r;

		if (!colon)
			return parse_error(dev, ACPI_ID, len, "':' missing after the id");
		if (colon == s + pos)
			return parse_error(dev, ACPI_ID, pos, "empty id");
		r = dev_put_text(dev, ACPI_ID, s + pos, (size_t)(colon - s - pos), true);
		if (r < 0)
			return r;
		pos = (size_t)(colon - s) + 1;
	}
	return 0;
}

/* ---- dmi -------------------------------------------------------------- */

static int dmi_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	for (unsigned int f = 0; f < dev->bus->n_fields; f++) {
		if (!dev_isset(dev, f))
			continue;
		strbuf_puts(sb, dev->bus->fields[f].tag);
		/* dmi-id.c ascii_filter(): printable, no space, no ':' */
		for (const char *p = dev_text(dev, f, ""); *p; p++)
			if (*p > ' ' && *p < 127 && *p != ':')
				strbuf_putc(sb, *p);
		strbuf_putc(sb, ':');
	}
	return sb->oom ? -ENOMEM : 0;
}

static int dmi_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	unsigned int f = 0;

	while (pos < len) {
		const char *colon = memchr(s + pos, ':', len - pos);
		size_t seg;
		int r;

		if (!colon)
			return parse_error(dev, NO_FIELD, len, "':' missing at the end");
		seg = (size_t)(colon - s) - pos;
		for (; f < dev->bus->n_fields; f++) {
			size_t tl = strlen(dev->bus->fields[f].tag);
			if (seg >= tl && memcmp(s + pos, dev->bus->fields[f].tag, tl) == 0)
				break;
		}
		if (f == dev->bus->n_fields)
			return parse_error(dev, NO_FIELD, pos, "unknown or out-of-order field");
		r = dev_put_text(dev, f, s + pos + strlen(dev->bus->fields[f].tag),
				 seg - strlen(dev->bus->fields[f].tag), false);
		if (r < 0)
			return r;
		/* what the kernel's filter drops cannot be in its string */
		for (size_t i = pos; i < pos + seg; i++)
			if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 127)
				return parse_error(dev, (int)f, i,
						   "space or non-ASCII byte in value");
		f++;
		pos += seg + 1;
	}
	return 0;
}

/* ---- cpu and x86cpu --------------------------------------------------- */

static int cpu_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_puts(sb, dev_text(dev, CPU_ARCH, "x86"));
	if (dev_isset(dev, CPU_VENDOR) || dev_isset(dev, CPU_FAMILY) || dev_isset(dev, CPU_MODEL)) {
		strbuf_putc(sb, ',');
		strbuf_printf(sb, "ven%sfam%smod%s", dev_text(dev, CPU_VENDOR, "0000"),
			      dev_text(dev, CPU_FAMILY, "0000"), dev_text(dev, CPU_MODEL, "0000"));
	}
	strbuf_puts(sb, ":feature:");
	format_numlist(dev, CPU_FEATURE, sb, true);
	return sb->oom ? -ENOMEM : 0;
}

static int cpu_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const char *feat = memmem(s, len, ":feature:", 9);
	size_t tlen, pos, used;
	const char *comma;
	int r;

	if (!feat)
		return parse_error(dev, CPU_FEATURE, len, "\":feature:\" missing");
	tlen = (size_t)(feat - s);
	comma = memchr(s, ',', tlen);
	if ((comma ? comma : feat) == s)
		return parse_error(dev, CPU_ARCH, 0, "empty");
	r = dev_put_text(dev, CPU_ARCH, s, (size_t)((comma ? comma : feat) - s), false);
	if (r < 0)
		return r;
	if (comma) {
		size_t off = (size_t)(comma - s) + 1;
		r = dev_parse_generic(dev, comma + 1, tlen - off, CPU_VENDOR, CPU_FEATURE, &used);
		if (r < 0)
			return r;
		if (used != tlen - off || !dev_isset(dev, CPU_VENDOR) || !dev_isset(dev, CPU_FAMILY) ||
		    !dev_isset(dev, CPU_MODEL))
			return parse_error(dev, CPU_VENDOR, off, "not of the form venXXXXfamXXXXmodXXXX");
	}
	pos = tlen + 9;
	r = parse_numlist(dev, CPU_FEATURE, s, len, &pos, true);
	if (r == 0 && pos != len)
		r = parse_error(dev, CPU_FEATURE, pos, "trailing characters");
	return r;
}

static int x86cpu_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	int r = dev_format_generic(dev, sb, X86CPU_VENDOR, X86CPU_FEATURE);

	if (r < 0)
		return r;
	strbuf_puts(sb, ":feature:");
	format_numlist(dev, X86CPU_FEATURE, sb, true);
	return sb->oom ? -ENOMEM : 0;
}

static int x86cpu_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	int r;

	r = dev_parse_generic(dev, s, len, X86CPU_VENDOR, X86CPU_FEATURE, &pos);
	if (r == 0)
		r = expect(dev, s, len, &pos, ":feature:", X86CPU_FEATURE);
	if (r == 0)
		r = parse_numlist(dev, X86CPU_FEATURE, s, len, &pos, true);
	if (r == 0 && pos != len)
		r = parse_error(dev, X86CPU_FEATURE, pos, "trailing characters");
	return r;
}

/* ---- ccw: drivers/s390/cio/device.c snprint_alias() ------------------- */

static int ccw_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	const char *dev_type = dev_text(dev, CCW_DEV_TYPE, "");
	int r = dev_format_generic(dev, sb, CCW_CU_TYPE, CCW_DEV_TYPE);

	if (r < 0)
		return r;
	if (strspn(dev_type, "0") != strlen(dev_type))
		return dev_format_generic(dev, sb, CCW_DEV_TYPE, CCW_N_FIELDS);
	strbuf_puts(sb, "dtdm");
	return sb->oom ? -ENOMEM : 0;
}

static int ccw_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0, used = 0;
	int r = dev_parse_generic(dev, s, len, CCW_CU_TYPE, CCW_DEV_TYPE, &pos);

	if (r < 0)
		return r;
	if (len - pos == 4 && memcmp(s + pos, "dtdm", 4) == 0)
		return 0;
	r = dev_parse_generic(dev, s + pos, len - pos, CCW_DEV_TYPE, CCW_N_FIELDS, &used);
	if (r == 0 && pos + used != len)
		r = parse_error(dev, NO_FIELD, pos + used, "trailing characters");
	if (r == 0 && strspn(dev_text(dev, CCW_DEV_TYPE, ""), "0") == 4)
		r = parse_error(dev, CCW_DEV_TYPE, pos, "a zero device type is written \"dtdm\"");
	return r;
}

/* ---- mdio: MDIO_ID_FMT, 32 binary digits, most significant first ------ */

static int mdio_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	uint64_t id = dev_isset(dev, MDIO_PHY_ID) ? dev_val(dev, MDIO_PHY_ID)->items[0].num : 0;

	for (int b = 31; b >= 0; b--)
		strbuf_putc(sb, (id >> b) & 1 ? '1' : '0');
	return sb->oom ? -ENOMEM : 0;
}

static int mdio_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	uint64_t id = 0;

	if (len != 32)
		return parse_error(dev, MDIO_PHY_ID, 0, "not 32 binary digits");
	for (size_t i = 0; i < 32; i++) {
		if (s[i] != '0' && s[i] != '1')
			return parse_error(dev, MDIO_PHY_ID, i, "not a binary digit");
		id = (id << 1) | (uint64_t)(s[i] - '0');
	}
	return dev_put_num(dev, MDIO_PHY_ID, id, false);
}

/* ---- mei: name:uuid:version: ------------------------------------------ */

static int mei_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_printf(sb, "%s:%s:%s:", dev_text(dev, MEI_NAME, ""), dev_text(dev, MEI_UUID, ""),
		      dev_text(dev, MEI_VERSION, "00"));
	return sb->oom ? -ENOMEM : 0;
}

static int mei_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const char *c1 = memchr(s, ':', len), *c2, *c3;
	uint64_t v;
	int r;

	if (!c1 || !(c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s))) ||
	    !(c3 = memchr(c2 + 1, ':', len - (size_t)(c2 + 1 - s))) || c3 != s + len - 1)
		return parse_error(dev, NO_FIELD, 0, "not of the form name:uuid:version:");
	if (c2 == c1 + 1)
		return parse_error(dev, MEI_UUID, (size_t)(c1 + 1 - s), "empty");
	if (c3 - c2 - 1 != 2 || parse_hex(c2 + 1, 2, 0xff, &v) < 0 || c2[1] == 'x')
		return parse_error(dev, MEI_VERSION, (size_t)(c2 + 1 - s), "not two hexadecimal digits");
	if ((r = dev_put_text(dev, MEI_NAME, s, (size_t)(c1 - s), false)) < 0 ||
	    (r = dev_put_text(dev, MEI_UUID, c1 + 1, (size_t)(c2 - c1 - 1), false)) < 0 ||
	    (r = dev_put_text(dev, MEI_VERSION, c2 + 1, 2, false)) < 0)
		return r;
	dev->values[MEI_VERSION].items[0].num = v;
	return 0;
}

/* ---- vio: T<type>S<compatible> ---------------------------------------- */

static int vio_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_printf(sb, "T%sS%s", dev_text(dev, VIO_TYPE, ""), dev_text(dev, VIO_COMPATIBLE, ""));
	return sb->oom ? -ENOMEM : 0;
}

static int vio_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const char *sep;
	int r;

	if (len == 0 || s[0] != 'T')
		return parse_error(dev, VIO_TYPE, 0, "'T' missing");
	sep = memchr(s + 1, 'S', len - 1);
	if (!sep)
		return parse_error(dev, VIO_COMPATIBLE, len, "'S' missing");
	if ((r = dev_put_text(dev, VIO_TYPE, s + 1, (size_t)(sep - s - 1), false)) < 0)
		return r;
	return dev_put_text(dev, VIO_COMPATIBLE, sep + 1, len - (size_t)(sep + 1 - s), false);
}

/* ---- i3c: part and ext both, or neither ---------------------------------- */

static int i3c_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	int r = dev_format_generic(dev, sb, I3C_DCR, I3C_PART);

	if (r < 0 || (!dev_isset(dev, I3C_PART) && !dev_isset(dev, I3C_EXT)))
		return r;
	strbuf_printf(sb, "part%sext%s", dev_text(dev, I3C_PART, "0000"), dev_text(dev, I3C_EXT, "0000"));
	return sb->oom ? -ENOMEM : 0;
}

static int i3c_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	int r = dev_parse_generic(dev, s, len, I3C_DCR, I3C_EXT + 1, &pos);

	if (r == 0 && dev_isset(dev, I3C_PART) != dev_isset(dev, I3C_EXT))
		r = parse_error(dev, dev_isset(dev, I3C_PART) ? I3C_EXT : I3C_PART, pos,
				"written with part_id and extra_info both, or neither");
	if (r == 0 && pos != len)
		r = parse_error(dev, NO_FIELD, pos, "trailing characters");
	return r;
}

/* ---- tbsvc: k<key>p<8 hex>v<8 hex>r<8 hex> -------------------------------- */

static int tbsvc_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const size_t tail = (size_t)3 * (1 + 8); /* p…v…r… */
	size_t used = 0;
	int r;

	if (len == 0 || s[0] != 'k')
		return parse_error(dev, TBSVC_KEY, 0, "'k' missing");
	if (len < 2 + tail)
		return parse_error(dev, TBSVC_KEY, 1, "too short for k<key>p<id>v<version>r<revision>");
	if (s[len - tail] != 'p')
		return parse_error(dev, TBSVC_ID, len - tail,
				   "not of the form p<8 hex digits>v<8 hex digits>r<8 hex digits> at the end");
	r = dev_put_text(dev, TBSVC_KEY, s + 1, len - 1 - tail, false);
	if (r == 0)
		r = dev_parse_generic(dev, s + len - tail, tail, TBSVC_ID, dev->bus->n_fields, &used);
	if (r == 0 && used != tail)
		r = parse_error(dev, NO_FIELD, len - tail + used, "trailing characters");
	return r;
}

/* ---- ishtp: {GUID} -------------------------------------------------------- */

static int ishtp_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_printf(sb, "{%s}", dev_text(dev, ISHTP_GUID, ""));
	return sb->oom ? -ENOMEM : 0;
}

static int ishtp_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	if (len < 3 || s[0] != '{' || s[len - 1] != '}')
		return parse_error(dev, ISHTP_GUID, 0, "not of the form {GUID}");
	return dev_put_text(dev, ISHTP_GUID, s + 1, len - 2, false);
}

/* ---- setters ---------------------------------------------------------- */

int dev_put_pci_class(struct modalias_dev *dev, uint64_t class_code)
{
	static const unsigned int bytes[] = { PCI_BASECLASS, PCI_SUBCLASS, PCI_INTERFACE };
	int r = 0;

	for (unsigned int b = 0; r == 0 && b < ARRAY_SIZE(bytes); b++)
		r = dev_put_num(dev, bytes[b], pci_class_byte(class_code, b), false);
	return r;
}

static int pci_set_special(struct modalias_dev *dev, unsigned int field, const char *value)
{
	uint64_t cls;
	int r = parse_hex(value, strlen(value), PCI_CLASS_MAX, &cls);

	return r < 0 ? r : dev_put_pci_class(dev, cls);
}

static int pcmcia_set_special(struct modalias_dev *dev, unsigned int field, const char *value)
{
	return dev_put_num(dev, PCMCIA_PROD_ID_HASH1 + (field - PCMCIA_PROD_ID1),
			   pcmcia_crc32(value, strlen(value)), false);
}

/* ---- the table ------------------------------------------------------- */

/* A bus: its name, its prefix, its fields from bus-fields.h's FOO_FIELDS
 * list, and where the kernel's string is not the generic tag/value one,
 * its own format and parse.  The order is the one modalias_bus_name()
 * lists. */
/* NOLINTNEXTLINE(bugprone-macro-parentheses): desc is a brace initializer */
#define FIELD_DESC(index, desc) [(index)] = desc,
#define FIELDS(list) ((const struct field_desc[]){ list(FIELD_DESC) })
#define BUS(n, p, list, ...) { .name = (n), .prefix = (p), .fields = FIELDS(list), \
			       .n_fields = ARRAY_SIZE(FIELDS(list)), __VA_ARGS__ }

static const struct bus_desc buses[] = {
	BUS("usb", "usb:", USB_FIELDS),
	BUS("pci", "pci:", PCI_FIELDS, .set_special = pci_set_special),
	BUS("scsi", "scsi:", SCSI_FIELDS),
	BUS("ieee1394", "ieee1394:", IEEE1394_FIELDS),
	BUS("input", "input:", INPUT_FIELDS, .format = input_format, .parse = input_parse),
	BUS("serio", "serio:", SERIO_FIELDS),
	BUS("hid", "hid:", HID_FIELDS),
	BUS("of", "of:", OF_FIELDS, .format = of_format, .parse = of_parse),
	BUS("acpi", "acpi:", ACPI_FIELDS, .format = acpi_format, .parse = acpi_parse),
	BUS("platform", "platform:", NAME_FIELDS),
	BUS("i2c", "i2c:", NAME_FIELDS),
	BUS("spi", "spi:", NAME_FIELDS),
	BUS("rpmsg", "rpmsg:", NAME_FIELDS),
	BUS("auxiliary", "auxiliary:", NAME_FIELDS),
	BUS("mhi", "mhi:", NAME_FIELDS),
	BUS("mhi_ep", "mhi_ep:", NAME_FIELDS),
	BUS("vchiq", "vchiq:", NAME_FIELDS),
	BUS("serdev", "serdev:", NAME_FIELDS),
	BUS("mmc", "mmc:", NAME_FIELDS),
	BUS("wmi", "wmi:", WMI_FIELDS),
	BUS("vmbus", "vmbus:", VMBUS_FIELDS),
	BUS("tee", "tee:", UUID_FIELDS),
	BUS("pnp", "pnp:", PNP_FIELDS),
	BUS("eisa", "eisa:", EISA_FIELDS),
	BUS("virtio", "virtio:", VIRTIO_FIELDS),
	BUS("sdio", "sdio:", SDIO_FIELDS),
	BUS("pcmcia", "pcmcia:", PCMCIA_FIELDS, .set_special = pcmcia_set_special),
	BUS("ccw", "ccw:", CCW_FIELDS, .format = ccw_format, .parse = ccw_parse),
	BUS("mdio", "mdio:", MDIO_FIELDS, .format = mdio_format, .parse = mdio_parse),
	BUS("dmi", "dmi:", DMI_FIELDS, .format = dmi_format, .parse = dmi_parse),
	BUS("cpu", "cpu:type:", CPU_FIELDS, .format = cpu_format, .parse = cpu_parse),
	BUS("x86cpu", "x86cpu:", X86CPU_FIELDS, .format = x86cpu_format, .parse = x86cpu_parse),
	BUS("hdaudio", "hdaudio:", HDAUDIO_FIELDS),
	BUS("amba", "amba:", AMBA_FIELDS),
	BUS("typec", "typec:", TYPEC_FIELDS),
	BUS("ulpi", "ulpi:", ULPI_FIELDS),
	BUS("sdw", "sdw:", SDW_FIELDS),
	BUS("bcma", "bcma:", BCMA_FIELDS),
	BUS("ssb", "ssb:", SSB_FIELDS),
	BUS("css", "css:", CSS_FIELDS),
	BUS("ap", "ap:", AP_FIELDS),
	BUS("nd", "nd:", DECTYPE_FIELDS),
	BUS("idxd", "idxd:", DECTYPE_FIELDS),
	BUS("mei", "mei:", MEI_FIELDS, .format = mei_format, .parse = mei_parse),
	BUS("vio", "vio:", VIO_FIELDS, .format = vio_format, .parse = vio_parse),
	BUS("vfio_pci", "vfio_pci:", PCI_FIELDS, .set_special = pci_set_special),
	BUS("parisc", "parisc:", PARISC_FIELDS),
	BUS("i3c", "i3c:", I3C_FIELDS, .format = i3c_format, .parse = i3c_parse),
	BUS("slim", "slim:", SLIM_FIELDS),
	BUS("zorro", "zorro:", ZORRO_FIELDS),
	BUS("ipack", "ipack:", IPACK_FIELDS),
	BUS("mipscdmm", "mipscdmm:", MIPSCDMM_FIELDS),
	BUS("rapidio", "rapidio:", RAPIDIO_FIELDS),
	BUS("fsl-mc", "fsl-mc:", FSL_MC_FIELDS),
	BUS("tbsvc", "tbsvc:", TBSVC_FIELDS, .parse = tbsvc_parse),
	BUS("ssam", "ssam:", SSAM_FIELDS),
	BUS("dfl", "dfl:", DFL_FIELDS),
	BUS("ishtp", "ishtp:", ISHTP_FIELDS, .format = ishtp_format, .parse = ishtp_parse),
	BUS("cdx", "cdx:", CDX_FIELDS),
	BUS("vfio_cdx", "vfio_cdx:", CDX_FIELDS),
	BUS("coreboot", "coreboot:", COREBOOT_FIELDS),
};

const struct bus_desc bus_unknown = BUS("", ":", RAW_FIELDS);

const struct bus_desc *bus_find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(buses); i++)
		if (strlen(buses[i].name) == len && memcmp(buses[i].name, name, len) == 0)
			return &buses[i];
	return NULL;
}

MODALIAS_EXPORT const char *modalias_bus_name(unsigned int index)
{
	return index < ARRAY_SIZE(buses) ? buses[index].name : NULL;
}

MODALIAS_EXPORT const char *modalias_bus_field_name(const char *bus, unsigned int index)
{
	const struct bus_desc *b = bus ? bus_find(bus, strlen(bus)) : NULL;

	return b && index < b->n_fields ? b->fields[index].name : NULL;
}

MODALIAS_EXPORT int modalias_bus_field_is_list(const char *bus, const char *field)
{
	const struct bus_desc *b;
	int f;

	if (!bus || !field)
		return -EINVAL;
	b = bus_find(bus, strlen(bus));
	f = b ? field_index(b, field) : -1;
	if (f < 0)
		return -ENOENT;
	return field_is_list(&b->fields[f]);
}

MODALIAS_EXPORT const char *modalias_bus_field_help(const char *bus, const char *field)
{
	const struct bus_desc *b = bus ? bus_find(bus, strlen(bus)) : NULL;
	int f;

	if (!b || !field)
		return NULL;
	f = field_index(b, field);
	return f < 0 ? NULL : b->fields[f].help;
}
