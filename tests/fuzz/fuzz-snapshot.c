/* Fuzz target: the snapshot reader (snapshot-read.c).  What it accepts
 * is walked and written again, and that document must read back to the
 * very same bytes: the reader and the writer agree on every input. */
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"
#include "snapshot-private.h"

static int walk(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	char *s = NULL;

	if (dev && modalias_dev_format(dev, &s) == 0)
		free(s);
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct modalias_ctx *ctx;
	struct modalias_snapshot *snap = NULL, *again = NULL;
	char *text = malloc(size + 1), *doc = NULL, *doc2 = NULL;

	if (!ctx && modalias_ctx_new(&ctx) == 0)
		modalias_ctx_set_log_priority(ctx, 0);
	if (!ctx || !text)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (snapshot_parse(ctx, "fuzz", text, size, &snap) < 0)
		goto out;
	modalias_snapshot_foreach(snap, walk, NULL);
	modalias_snapshot_is_module_builtin(snap, "virtio_pci"); /* its '-' spelling is asked too */
	if (modalias_snapshot_format(snap, &doc) < 0)
		goto out;
	if (snapshot_parse(ctx, "again", doc, strlen(doc), &again) < 0 || modalias_snapshot_format(again, &doc2) < 0 ||
	    strcmp(doc, doc2) != 0)
		abort(); /* the writer wrote what the reader cannot read back */
out:
	free(doc2);
	free(doc);
	modalias_snapshot_unref(again);
	modalias_snapshot_unref(snap);
	free(text);
	return 0;
}
