/*
 * libmodalias - libkmod, loaded when first needed (as systemd's udev does):
 * a one-shot lookup from an index cache never pays for loading libkmod and
 * what it links (libcrypto, liblzma, libzstd).  The ELF note below says so
 * to the tools that copy a program with what it needs (an initramfs
 * builder reading the .note.dlopen notes, the convention systemd's own
 * libraries follow), since ldd cannot see a dlopen().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "kmod-dl.h"

/* The .note.dlopen note: an ELF note (name "FDO", type 0x407c0c0a) whose
 * descriptor is a JSON array of the libraries dlopen()ed, with each one's
 * feature, priority and sonames. */
#define DLOPEN_NOTE_JSON                                                                              \
	"[{\"feature\":\"kmod\",\"description\":\"Load kernel modules (hotplug agent, modalias load)\"," \
	"\"priority\":\"required\",\"soname\":[\"" KMOD_SONAME "\"]}]"
__attribute__((used, section(".note.dlopen"))) _Alignas(4) static const struct {
	/* read by ELF tools from the section, never by this program */
	// cppcheck-suppress unusedStructMember ; the ELF note header, read from the file by ELF tools
	uint32_t n_namesz, n_descsz, n_type;
	_Alignas(4) char name[sizeof("FDO")];
	_Alignas(4) char desc[sizeof(DLOPEN_NOTE_JSON)];
} kmod_dlopen_note = {
	.n_namesz = sizeof("FDO"),
	.n_descsz = sizeof(DLOPEN_NOTE_JSON),
	.n_type = 0x407c0c0a,
	.name = "FDO",
	.desc = DLOPEN_NOTE_JSON,
};

struct kmod_dl kmod_dl;
static int kmod_dl_error;
static pthread_once_t kmod_dl_once = PTHREAD_ONCE_INIT;

static void kmod_dl_load(void)
{
	void *h = dlopen(KMOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		kmod_dl_error = -EOPNOTSUPP;
		return;
	}
#define SYM(name)                                                    \
	do {                                                         \
		*(void **)&kmod_dl.name = dlsym(h, #name);           \
		if (!kmod_dl.name) {                                 \
			kmod_dl_error = -EOPNOTSUPP;                 \
			return;                                      \
		}                                                    \
	} while (0)
	KMOD_DL_SYMBOLS(SYM);
#undef SYM
}

int kmod_dl_open(void)
{
	pthread_once(&kmod_dl_once, kmod_dl_load);
	return kmod_dl_error;
}
