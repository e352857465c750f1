/*
 * Oracle: every lookup answered as libkmod answers it.  On the committed
 * kernel index files (Debian's 6.1 and 6.12 amd64 and arm64, and a 2.6.35
 * build), a corpus of concrete modaliases — every pattern instantiated,
 * the real recorded MODALIAS strings, module names, and near-misses — and
 * a list of tricky cases (lookup order, aliases with spaces, unbalanced
 * brackets, aliases too long for kmod, odd table lines) is resolved by
 * libmodalias and by kmod_module_new_from_lookup(); the modules must be
 * the same, in the same order (kmod's duplicates folded), and an error
 * the same error.  A new kernel is one line in fixtures[] below (and one
 * run of tests/data/regenerate-debian.sh).
 *
 * Two libkmods answer: the one this program links (the system's: kmod 30
 * on Debian 12), and, when tests/data/fetch-sid-kmod.sh has fetched it into
 * $MODALIAS_KMOD_SID, Debian sid's libkmod 34, asked through tests/kmod-lookup
 * run under sid's loader (skipped otherwise: `make check` downloads nothing).
 * The corpus also holds every PCI and USB id of pci.ids and usb.ids where
 * they are installed (bench/hwdata-modaliases.sh turns them into modaliases),
 * and every builtin module's name and raw alias.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <libkmod.h>
#include <unistd.h>

#include "libmodalias-private.h"
#include "table-private.h"
#include "test-common.h"

#include "corpus.h"

/* LeakSanitizer (the sanitizer pass), for this program alone: kmod 30's
 * alias-index lookup, failing on a key too long for its 4096-byte buffer
 * after a first match (the long tricky cases below), drops the modules it
 * already found and the open index without freeing them, and those modules
 * keep the kmod context alive.  That is libkmod's leak on the oracle's own
 * calls; libmodalias never calls kmod_module_new_from_lookup(), and every
 * other program's leaks stay checked. */
__attribute__((visibility("default"))) const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkmod.so.2\n";
}

/* ---- the comparison -------------------------------------------------------- */

/* A libkmod answer, kmod's duplicates folded: NAME is appended to S unless
 * SEEN has it. */
static void fold_add(GString *s, GHashTable *seen, const char *name)
{
	if (g_hash_table_contains(seen, name))
		return;
	g_hash_table_add(seen, g_strdup(name));
	g_string_append_printf(s, "%s%s", s->len ? " " : "", name);
}

/* The linked libkmod's answer, duplicates folded, as a space-separated string. */
static char *kmod_answer(struct kmod_ctx *kctx, const char *alias)
{
	struct kmod_list *list = NULL, *l;
	GString *s = g_string_new(NULL);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	int r = kmod_module_new_from_lookup(kctx, alias, &list);

	if (r < 0) {
		g_string_printf(s, "error %d", r);
		return g_string_free(s, FALSE);
	}
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		fold_add(s, seen, kmod_module_get_name(m));
		kmod_module_unref(m);
	}
	kmod_module_unref_list(list);
	return g_string_free(s, FALSE);
}

/* tests/kmod-lookup's line for an alias, duplicates folded likewise. */
static char *fold_line(const char *line)
{
	GString *s = g_string_new(NULL);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_auto(GStrv) names = NULL;

	if (g_str_has_prefix(line, "error "))
		return g_strdup(line);
	names = g_strsplit(line, " ", -1);
	for (char **n = names; *n; n++)
		if (**n)
			fold_add(s, seen, *n);
	return g_string_free(s, FALSE);
}

static char *our_answer(struct modalias_table *t, struct modalias_result *res, const char *alias)
{
	GString *s = g_string_new(NULL);
	int r = modalias_table_lookup(t, alias, res);

	if (r < 0) {
		g_string_printf(s, "error %d", r);
		return g_string_free(s, FALSE);
	}
	for (unsigned int i = 0; i < modalias_result_get_count(res); i++)
		g_string_append_printf(s, "%s%s", i ? " " : "", modalias_result_get_module(res, i));
	return g_string_free(s, FALSE);
}

struct fixture {
	const char *name;
	unsigned int min_corpus;
};

/* ---- tricky cases ------------------------------------------------------------ */

/* Asked of every table and compared with kmod, whatever it answers: the
 * cases of issue 14 and odd lines of the real 6.12 tables. */
static const char *const tricky[] = {
	/* lookup order: 6.12's crc64-rocksoft is a builtin module's name and
	 * another builtin's alias: kmod tries builtin names first */
	"crc64-rocksoft", "crc64_rocksoft", "crc64-rocksoft-generic", "crypto-crc64-rocksoft",
	/* aliases with spaces (arm64 6.12's sound cards) */
	"mt8186_mt6366 soc card", "mt8186-mt6366 soc card", "mt8188 mt6359 soc card",
	"platform: mt8365_mt6357", "mt8188  mt6359 soc card", " mt8186_mt6366 soc card",
	"mt8186_mt6366 soc card ", "mt8186_mt6366\tsoc card", "mt8186_mt6366", "soc card",
	"mt8183_da7219_max98357 soc card", "platform:mt8365_mt6357",
	/* unbalanced brackets: kmod refuses them (-EINVAL) */
	"pci:v[0", "pci:v0]", "[", "]", "x[]]y", "x[!]]", "acpi:PNP0C0A:[", "usb:v]046D",
	"of:NfooT(null)Cvendor,a[b", "dmi:bvn[:",
	/* balanced oddities */
	"x[]y", "x[a-]", "pci:v0000[8]086d*", "[-]", "a-[-]-b",
	/* of: as the kernel writes it: capital, empty and odd names and types */
	"of:NfooTBCvendor,dev", "of:NT(null)Csimple-audio-card", "of:NTTCsimple-audio-card",
	"of:NsoundT<NULL>Csimple-audio-card", "of:N T C", "of:NsoundT(null)Csimple-audio-cardCfoo",
	"of:NSOUNDTSoundCsimple-audio-card", "of:Nsound@0T(null)Csimple-audio-card",
	/* every module whose pattern matches, not the first (kmod issue 207) */
	"char-major-116-1", "char-major-116-33", "char-major-116-2",
	/* several builtins' patterns matching (7.x): kmod's index walk, reversed */
	"pnp:dPNP0303*", "pnp:dPNP0303", "input:b*v*p*e*-e*1,*2,*k*r*8,*a*m*l*s*f*w*",
	/* builtin aliases with wildcards, and the builtin modules' own */
	"char-major-4-64", "char-major-4-", "cxl:t6", "cxl:t3", "cxl:t36",
	/* '-' and '_', symbols, module names */
	"snd_hda_intel", "snd-hda-intel", "platform:serial8250", "symbol:usb_register_driver",
	"symbol:usb-register-driver", "symbol:", "usbcore", "usb-storage",
	/* duplicate lines and patterns shared by several modules */
	"auxiliary:i915.mei-gsc", "auxiliary:i915.mei_gsc", "mdio:00000011101000011011011000010000",
	"hid:b0003g0001v0000046Dp0000C090", "pci:v000010ECd00005763sv00000000sd00000000bc01sc08i02",
	/* the newer buses' device strings, as their drivers write them */
	"slim:217:1a0:1:0", "fsl-mc:v00001957ddpni", "tbsvc:knetworkp00000001v00000001r00000001",
	"ssam:d01c02t02i01f00", "ishtp:{33AECD58-B679-4E54-9BD9-A04D34F0C226}", "coreboot:t00000017",
	"vfio_pci:v000010DEd00001DB6sv000010DEsd00001212bc03sc02i00", "cxl:t3", "dax:t0",
	/* nearly nothing */
	"", ":", "*", "?", "-", "_", "alias",
};

/* A pattern of the table ending in '*' whose concrete form is padded to
 * these lengths: kmod cuts an alias at 4095 bytes and fails a lookup when
 * the alias and a matched module's name exceed its 4096-byte key. */
static const size_t long_lengths[] = { 4070, 4076, 4078, 4080, 4082, 4084, 4086, 4087, 4088,
				       4089, 4090, 4092, 4093, 4094, 4095, 4096, 4097, 5000, 70000 };
static const char *const long_prefixes[] = { "acpi*:", "cpu:type:x86,", "dmi*:", "of:N*T*C", "hid:" };

static void add_long_aliases(const char *dir, GPtrArray *out)
{
	g_autofree char *path = g_build_filename(dir, "modules.alias", NULL);
	g_autoptr(GPtrArray) pats = alias_lines(path, true);

	for (size_t k = 0; k < G_N_ELEMENTS(long_prefixes); k++) {
		for (guint i = 0; i < pats->len; i++) {
			const char *p = g_ptr_array_index(pats, i);
			if (!g_str_has_prefix(p, long_prefixes[k]) || !g_str_has_suffix(p, "*") || strchr(p, '['))
				continue;
			for (size_t l = 0; l < G_N_ELEMENTS(long_lengths); l++) {
				GString *a = g_string_new(NULL);
				/* the pattern with each wildcard as nothing, then padding */
				for (const char *c = p; *c; c++)
					if (*c != '*' && *c != '?')
						g_string_append_c(a, *c);
				while (a->len < long_lengths[l])
					g_string_append_c(a, 'X');
				g_ptr_array_add(out, g_string_free(a, FALSE));
			}
			break;
		}
	}
}

/* What the tricky cases must be answered (kmod agrees: the comparison
 * checks that), so that they test something on the table they are for. */
static const struct {
	const char *fixture, *alias, *answer;
} tricky_answers[] = {
	{ "linux-6.12.118+deb12-amd64", "crc64-rocksoft", "crc64_rocksoft" },
	{ "linux-6.12.118+deb12-arm64", "crc64-rocksoft", "crc64_rocksoft" },
	{ "linux-6.12.118+deb12-arm64", "mt8186-mt6366 soc card", "mt8186_mt6366" },
	{ "linux-6.12.118+deb12-arm64", "mt8188 mt6359 soc card", "mt8188_mt6359" },
	{ "linux-6.12.118+deb12-arm64", "platform: mt8365_mt6357", "mt8365_mt6357" },
	{ "linux-6.12.118+deb12-arm64", "mt8188  mt6359 soc card", "" },
	{ "linux-6.12.118+deb12-amd64", "char-major-4-64", "8250" },
	{ "linux-6.1.0-57-amd64", "pci:v[0", "error -22" },
	{ "linux-6.12.118+deb12-arm64", "x[]]y", "error -22" },
	{ "linux-6.1.0-57-amd64", "of:NfooTBCvendor,dev", "" },
	{ "linux-6.12.118+deb12-arm64", "slim:217:1a0:1:0", "snd_soc_wcd9335" },
	{ "linux-6.12.118+deb12-arm64", "fsl-mc:v00001957ddpni", "fsl_dpaa2_eth" },
	{ "linux-6.12.118+deb12-amd64", "tbsvc:knetworkp00000001v00000001r00000001", "thunderbolt_net" },
	{ "linux-6.12.118+deb12-amd64", "ssam:d01c02t02i01f00", "surface_battery" },
	{ "linux-6.12.118+deb12-amd64", "ishtp:{33AECD58-B679-4E54-9BD9-A04D34F0C226}", "intel_ishtp_hid" },
	{ "linux-6.12.118+deb12-arm64", "coreboot:t00000017", "memconsole_coreboot" },
	{ "linux-6.12.118+deb12-amd64", "vfio_pci:v000010DEd00001DB6sv000010DEsd00001212bc03sc02i00", "vfio_pci" },
	{ "linux-6.1.0-57-amd64", "char-major-116-1", "snd snd_seq" },
	{ "linux-7.2.13+deb14-amd64", "char-major-116-33", "snd snd_timer" },
	{ "linux-7.2.13+deb14-amd64", "pnp:dPNP0303*", "i8042 tpm_tis" },
	{ "linux-7.2.13+deb14-amd64", "pnp:dPNP0303", "i8042 tpm_tis" },
	{ "linux-7.2.13+deb14-amd64", "input:b*v*p*e*-e*1,*2,*k*r*8,*a*m*l*s*f*w*", "keyboard mousedev" },
	{ "linux-6.12.118+deb13-amd64", "input:b*v*p*e*-e*1,*2,*k*r*8,*a*m*l*s*f*w*", "evdev" },
};

/* ---- the corpus ------------------------------------------------------------- */

/* The corpus in its parts, counted apart in the messages. */
enum part { PART_TABLE, PART_TRICKY, PART_IDS, PART_MAX };
static const char *const part_names[] = { "drawn from the table", "tricky", "pci.ids/usb.ids ids" };

struct corpus {
	GPtrArray *aliases;
	guint end[PART_MAX]; /* each part ends there */
	unsigned int n_real, n_patterns;
};

static enum part part_of(const struct corpus *c, guint i)
{
	enum part p = PART_TABLE;

	while (i >= c->end[p])
		p++;
	return p;
}

/* Every builtin module's name (both spellings) and its aliases as written:
 * several builtin patterns overlap on 7.x, and kmod's order among them is
 * what they test. */
static void add_builtin_strings(const char *dir, GPtrArray *out)
{
	g_autofree char *mi = g_build_filename(dir, "modules.builtin.modinfo", NULL);
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!g_file_get_contents(mi, &text, &len, NULL))
		return;
	for (const char *e = text; e < text + len; e += strlen(e) + 1) {
		const char *dot = strchr(e, '.');
		const char *a = strstr(e, ".alias=");

		if (!dot || strchr(e, '\n'))
			continue;
		if (a == dot) {
			g_ptr_array_add(out, g_strdup(a + 7));
		} else if (g_str_has_prefix(dot, ".file=") || g_str_has_prefix(dot, ".license=")) {
			g_autofree char *name = g_strndup(e, (gsize)(dot - e));
			g_ptr_array_add(out, g_strdup(name));
			g_ptr_array_add(out, g_strdelimit(g_strdup(name), "_", '-'));
		}
	}
}

/* pci.ids' and usb.ids' ids as modaliases, by bench/hwdata-modaliases.sh
 * (PCI_IDS, USB_IDS; /usr/share/misc's by default); none where they are
 * not installed. */
static void add_hwdata_ids(GPtrArray *out)
{
	const char *pci = g_getenv("PCI_IDS") ? g_getenv("PCI_IDS") : "/usr/share/misc/pci.ids";
	const char *usb = g_getenv("USB_IDS") ? g_getenv("USB_IDS") : "/usr/share/misc/usb.ids";
	g_autofree char *script = g_test_build_filename(G_TEST_DIST, "..", "bench", "hwdata-modaliases.sh", NULL);
	const char *argv[] = { "sh", script, pci, usb, NULL };
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	int status = 0;

	if (access(pci, R_OK) != 0 || access(usb, R_OK) != 0) {
		g_test_message("no %s or %s: no pci.ids/usb.ids part", pci, usb);
		return;
	}
	g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &text, NULL,
				   &status, NULL));
	g_assert_true(g_spawn_check_wait_status(status, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++)
		if (**l)
			g_ptr_array_add(out, g_strdup(*l));
}

static void corpus_build(const char *dir, struct corpus *c)
{
	g_autoptr(GPtrArray) events = uevents_load();
	g_autoptr(GPtrArray) real = g_ptr_array_new();

	for (guint i = 0; i < events->len; i++) {
		const char *m = uevent_get(g_ptr_array_index(events, i), "MODALIAS");
		if (m)
			g_ptr_array_add(real, (gpointer)m);
	}
	c->aliases = build_corpus(dir, real, &c->n_real, &c->n_patterns);
	c->end[PART_TABLE] = c->aliases->len;
	for (size_t i = 0; i < G_N_ELEMENTS(tricky); i++)
		g_ptr_array_add(c->aliases, g_strdup(tricky[i]));
	add_builtin_strings(dir, c->aliases);
	add_long_aliases(dir, c->aliases);
	c->end[PART_TRICKY] = c->aliases->len;
	add_hwdata_ids(c->aliases);
	c->end[PART_IDS] = c->aliases->len;
}

/* ---- the tests --------------------------------------------------------------- */

/* Compares libmodalias's answers on FX's table with WANT, libkmod's (KMOD
 * names which libkmod), and checks the tricky answers. */
static void compare(const struct fixture *fx, const char *dir, const struct corpus *c, GPtrArray *want,
		    const char *kmod)
{
	const char *no_config[] = { NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t;
	struct modalias_result *res;
	unsigned int matched = 0, bad = 0, refused = 0, n[PART_MAX] = { 0 }, differ[PART_MAX] = { 0 };
	bool seen[G_N_ELEMENTS(tricky_answers)] = { false };
	GString *parts = g_string_new(NULL);

	g_assert_cmpuint(want->len, ==, c->aliases->len);
	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_config(t, no_config), ==, 0);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	for (guint i = 0; i < c->aliases->len; i++) {
		const char *alias = g_ptr_array_index(c->aliases, i);
		const char *w = g_ptr_array_index(want, i);
		g_autofree char *got = our_answer(t, res, alias);
		enum part p = part_of(c, i);

		n[p]++;
		if (strcmp(w, got) != 0) {
			differ[p]++;
			if (bad++ < 20)
				g_test_message("DISAGREE on '%.100s' (%zu bytes): %s '%s', libmodalias '%s'", alias,
					       strlen(alias), kmod, w, got);
		}
		matched += got[0] != '\0' && strncmp(got, "error", 5) != 0;
		refused += p == PART_TRICKY && strncmp(got, "error", 5) == 0;
		for (size_t k = 0; k < G_N_ELEMENTS(tricky_answers); k++)
			if (strcmp(tricky_answers[k].fixture, fx->name) == 0 &&
			    strcmp(tricky_answers[k].alias, alias) == 0) {
				g_assert_cmpstr(got, ==, tricky_answers[k].answer);
				seen[k] = true;
			}
	}
	for (enum part p = 0; p < PART_MAX; p++)
		g_string_append_printf(parts, "%s%s %u (%u differ)", p ? ", " : "", part_names[p], n[p], differ[p]);
	g_test_message("%s with %s: %u lookups compared: %s; %u of the table's part are real recorded "
		       "ones, %u tricky ones refused; %u resolved, %u disagreements",
		       fx->name, kmod, c->aliases->len, parts->str, c->n_real, refused, matched, bad);
	g_string_free(parts, TRUE);
	g_assert_cmpuint(bad, ==, 0);
	for (size_t k = 0; k < G_N_ELEMENTS(tricky_answers); k++)
		g_assert_true(seen[k] || strcmp(tricky_answers[k].fixture, fx->name) != 0);
	/* most instantiated patterns must resolve, or the corpus tests little */
	g_assert_cmpuint(matched, >, c->n_patterns * 3 / 4);
	modalias_result_unref(res);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
}

/* With the libkmod this program links. */
static void test_oracle(gconstpointer data)
{
	const struct fixture *fx = data;
	g_autofree char *dir = g_test_build_filename(G_TEST_DIST, "data", fx->name, NULL);
	const char *no_config[] = { NULL };
	struct kmod_ctx *kctx = kmod_new(dir, no_config);
	g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *label = g_strdup_printf("the linked libkmod (%s at build time)", KMOD_BUILD_VERSION);
	struct corpus c;

	g_assert_nonnull(kctx);
	kmod_set_log_priority(kctx, 0);
	kmod_load_resources(kctx);
	corpus_build(dir, &c);
	g_assert_cmpuint(c.end[PART_TABLE], >=, fx->min_corpus);
	for (guint i = 0; i < c.aliases->len; i++)
		g_ptr_array_add(want, kmod_answer(kctx, g_ptr_array_index(c.aliases, i)));
	kmod_unref(kctx);
	compare(fx, dir, &c, want, label);
	g_ptr_array_unref(c.aliases);
}

/* With Debian sid's libkmod (34), run by tests/kmod-lookup under sid's
 * loader from $MODALIAS_KMOD_SID (tests/data/fetch-sid-kmod.sh). */
static void test_oracle_sid(gconstpointer data)
{
	const struct fixture *fx = data;
	g_autofree char *dir = g_test_build_filename(G_TEST_DIST, "data", fx->name, NULL);
	g_autofree char *helper = g_test_build_filename(G_TEST_BUILT, "kmod-lookup", NULL);
	const char *cache = g_getenv("MODALIAS_KMOD_SID");
	g_autofree char *run = cache ? g_build_filename(cache, "bin", "run", NULL) : NULL;
	g_autofree char *kmod = cache ? g_build_filename(cache, "root", "usr", "bin", "kmod", NULL) : NULL;
	g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *in_path = NULL, *out = NULL, *version = NULL, *label = NULL;
	g_auto(GStrv) lines = NULL;
	GString *in = g_string_new(NULL);
	struct corpus c;
	int status = 0, fd;

	if (!run || access(run, X_OK) != 0) {
		g_test_skip("no Debian sid libkmod: run tests/data/fetch-sid-kmod.sh [CACHE] and set "
			    "MODALIAS_KMOD_SID=CACHE (make check: tests/.kmod-sid)");
		return;
	}
	{
		const char *argv[] = { run, kmod, "--version", NULL };
		g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, &version, NULL, &status, NULL));
		g_assert_true(g_spawn_check_wait_status(status, NULL));
		version[strcspn(version, "\n")] = '\0';
		label = g_strdup_printf("sid's libkmod (%s)", version);
	}
	corpus_build(dir, &c);
	for (guint i = 0; i < c.aliases->len; i++)
		g_string_append_len(in, g_ptr_array_index(c.aliases, i), (gssize)strlen(g_ptr_array_index(c.aliases, i)) + 1);
	fd = g_file_open_tmp("oracle-XXXXXX", &in_path, NULL);
	g_assert_cmpint(fd, >=, 0);
	close(fd);
	g_assert_true(g_file_set_contents(in_path, in->str, (gssize)in->len, NULL));
	g_string_free(in, TRUE);
	{
		g_autofree char *cmd = g_strdup_printf("'%s' '%s' '%s' < '%s'", run, helper, dir, in_path);
		const char *argv[] = { "sh", "-c", cmd, NULL };
		g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL,
					   &status, NULL));
		g_assert_true(g_spawn_check_wait_status(status, NULL));
	}
	g_unlink(in_path);
	lines = g_strsplit(out, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, c.aliases->len + 1);
	for (guint i = 0; i < c.aliases->len; i++)
		g_ptr_array_add(want, fold_line(lines[i]));
	compare(fx, dir, &c, want, label);
	g_ptr_array_unref(c.aliases);
}

static const struct fixture fixtures[] = {
	{ "linux-6.1.0-57-amd64", 20000 },
	{ "linux-6.12.118+deb12-amd64", 20000 },
	{ "linux-6.12.118+deb12-arm64", 20000 },
	{ "linux-2.6.35.7-samsung", 1500 },
	{ "linux-6.12.118+deb13-amd64", 20000 },
	{ "linux-7.2.13+deb14-amd64", 20000 },
};

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(fixtures); i++) {
		g_autofree char *path = g_strdup_printf("/oracle/%s", fixtures[i].name);
		g_autofree char *sid = g_strdup_printf("/oracle-kmod-sid/%s", fixtures[i].name);
		g_test_add_data_func(path, &fixtures[i], test_oracle);
		g_test_add_data_func(sid, &fixtures[i], test_oracle_sid);
	}
	return g_test_run();
}
