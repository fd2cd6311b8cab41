// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc build-db: the docs database of a build
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_catalog.h"
#include "kmsg_db.h"
#include "kmsg_diff.h"
#include "kmsg_index.h"
#include "kmsg_jcatalog.h"
#include "kmsg_srcdoc.h"
#include "kmsg_strbuf.h"
#include "kmsg-doc.h"

/* ---- the database ---- */

/*
 * The rows of messages: every call site of the build once, the kmsg_*()
 * ones and the plain ones (which the checks know only through the
 * entries that adopted them).  Sorted; a module given twice counts once.
 */
const struct kmsg_msg **site_rows(struct ctx *c, size_t *nrows)
{
	const struct kmsg_msg **v = kmsg_xcalloc(c->nsorted + c->sites.n + 1,
						  sizeof(*v));
	size_t i, n = 0, k = 0;

	for (i = 0; i < c->nsorted; i++)
		if (!c->sorted[i]->adopted)
			v[n++] = c->sorted[i];
	for (i = 0; i < c->sites.n; i++)
		if (c->sites.v[i].auto_id)
			v[n++] = &c->sites.v[i];
	if (n > 1)
		qsort(v, n, sizeof(*v), msg_cmp);
	for (i = 0; i < n; i++)
		if (!k || msg_cmp(&v[k - 1], &v[i]))
			v[k++] = v[i];
	*nrows = k;
	return v;
}

int write_db(struct ctx *c)
{
	struct kmsg_db_input in = {
		.release = c->opt.release ? c->opt.release :
			   c->release ? c->release : "",
		.build_id = c->build_id ? c->build_id : "",
		.banner = c->opt.banner ? c->opt.banner :
			  c->banner ? c->banner : "",
		.source = c->opt.source ? c->opt.source : "",
		.modules = c->modules,
		.nmodules = c->nmodules,
	};
	const struct kmsg_msg **rows = site_rows(c, &in.nmsgs);
	struct kmsg_db_doc *docs = kmsg_xcalloc(c->nids + 1, sizeof(*docs));
	struct kmsg_db_alias *aliases = kmsg_xcalloc(c->naliases + in.nmsgs + 1,
						     sizeof(*aliases));
	struct kmsg_alias *curated = kmsg_xcalloc(in.nmsgs + 1,
						  sizeof(*curated));
	struct kmsg_db_trans *trans = NULL;
	size_t i, k, ntrans = 0, cap = 0, ncurated = 0;
	char *err;
	int ret;

	for (i = 0; i < c->nids; i++) {
		const struct ident *id = &c->ids[i];
		const struct kmsg_doc *eff = id->src ? id->src :
			id->cat && id->cat->described ? id->cat : NULL;

		if (eff) {
			docs[in.ndocs].doc = eff;
			docs[in.ndocs].see_also = eff->see_also[0] || !id->cat ?
				eff->see_also : id->cat->see_also;
			in.ndocs++;
		}
		if (!id->cat)
			continue;
		for (k = 0; k < id->cat->naliases; k++) {
			aliases[in.naliases].id = id->id;
			aliases[in.naliases].alias = &id->cat->aliases[k];
			aliases[in.naliases].position = (unsigned int)k;
			aliases[in.naliases].file = id->cat->file;
			in.naliases++;
		}
		for (k = 0; k < id->cat->ntrans; k++) {
			KMSG_GROW(trans, cap, ntrans);
			trans[ntrans].id = id->id;
			trans[ntrans].trans = &id->cat->trans[k];
			trans[ntrans].file = id->cat->file;
			ntrans++;
		}
	}
	/*
	 * A kmsg_*() site's automatic id is an alias of its curated one:
	 * the event names the message by its automatic id only
	 */
	for (i = 0; i < in.nmsgs; i++) {
		const struct kmsg_msg *m = rows[i];
		unsigned int pos = 0;

		if (!m->id || !m->number || !m->auto_id)
			continue;
		for (k = 0; k < in.naliases; k++) {
			if (!strcmp(aliases[k].alias->auto_id, m->auto_id))
				break;
			pos += !strcmp(aliases[k].id, m->id);
		}
		if (k < in.naliases)
			continue;	/* a catalog names it already */
		curated[ncurated].auto_id = m->auto_id;
		curated[ncurated].modname = m->modname;
		curated[ncurated].line = m->line;
		aliases[in.naliases].id = m->id;
		aliases[in.naliases].alias = &curated[ncurated++];
		aliases[in.naliases].position = pos;
		aliases[in.naliases].file = m->file;
		in.naliases++;
	}
	in.msgs = rows;
	in.docs = docs;
	in.trans = trans;
	in.ntrans = ntrans;
	in.aliases = aliases;
	ret = kmsg_db_write(c->opt.out, &in, &err);
	if (ret) {
		fprintf(stderr, "kmsg-doc: %s: %s\n", c->opt.out, err);
		free(err);
	}
	free(rows);
	free(docs);
	free(aliases);
	free(curated);
	free(trans);
	return ret;
}


/* kmsg-doc diff: the database of a build, as build-db writes it */
int diff_build(char **objects, int nobjects, const char *srctree,
		      const char *catalog, const char *out)
{
	struct ctx c = { 0 };
	int ret = -1;

	c.opt.build_db = true;
	c.opt.srctree = srctree;
	c.opt.catalog = catalog;
	c.opt.out = out;
	run_build(&c, objects, nobjects);
	if (kmsg_diags_errors(&c.diags) || c.failed) {
		kmsg_diags_print(&c.diags, stderr);
		fputs("kmsg-doc: errors in the build or its documentation\n",
		      stderr);
	} else {
		ret = write_db(&c) ? -1 : 0;
	}
	ctx_free(&c);
	return ret;
}
