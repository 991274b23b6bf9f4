/*
 * out-json-waits.c - the "waits" key of `cpperf report --format=json`
 * (docs/json.md, docs/waits.md): every call site's wait states, Late
 * Receiver and transmission, the pairs of sites and the culprits, in
 * seconds.  Sites are named by the ids of "mpi.callsites".  With
 * compensation data (comp_on) each wait state has its compensated value
 * beside it, under its name and "_comp".
 */
#include "compensation.h"
#include "data.h"
#include "json.h"
#include "merge-waits.h"
#include "out-json.h"

/* "key": ns, and with comp "comp_key": comp_ns. */
static void put_wait(struct json_w *w, const char *key, const char *comp_key, uint64_t ns,
		     uint64_t comp_ns, bool comp)
{
	rep_json_seconds(w, key, ns);
	if (comp)
		rep_json_seconds(w, comp_key, comp_ns);
}

/* A site's id in "mpi.callsites", or null for REP_NO_SITE. */
static void put_site_id(struct json_w *w, const char *key, uint32_t site)
{
	json_key(w, key);
	if (site == REP_NO_SITE)
		json_null(w);
	else
		json_u64(w, (uint64_t)site + 1);
}

static void put_site(struct json_w *w, const struct rep_data *d, uint32_t i, bool comp)
{
	const struct rep_site *s = &d->mpi.sites[i];

	json_begin_object(w);
	put_site_id(w, "id", i);
	rep_json_site_name(w, d, s);
	for (int k = 0; k < PROF_WAITS; k++)
		put_wait(w, prof_wait_names[k], prof_wait_comp_names[k], s->waits.ns[k],
			 s->waits.comp_ns[k], comp);
	put_wait(w, "late_receiver", "late_receiver_comp", s->late_receiver_ns,
		 s->late_receiver_comp_ns, comp);
	rep_json_seconds(w, "transmission", waits_transmission_ns(s));
	json_end_object(w);
}

static void put_pair(struct json_w *w, const struct rep_site_pair *q, bool comp)
{
	json_begin_object(w);
	put_site_id(w, "send_site", q->send_site);
	put_site_id(w, "recv_site", q->recv_site);
	json_key(w, "count");
	json_u64(w, q->count);
	json_key(w, "bytes");
	json_u64(w, q->bytes);
	put_wait(w, "late_sender", "late_sender_comp", q->late_sender_ns, q->late_sender_comp_ns,
		 comp);
	put_wait(w, "late_receiver", "late_receiver_comp", q->late_receiver_ns,
		 q->late_receiver_comp_ns, comp);
	json_end_object(w);
}

void rep_json_waits(struct json_w *w, const struct rep_data *d)
{
	const struct rep_waits *x = &d->waits;
	bool comp = comp_present(d);

	if (!x->present)
		return;
	json_key(w, "waits");
	json_begin_object(w);
	json_key(w, "sites");
	json_begin_array(w);
	for (uint32_t i = 0; i < d->mpi.nsites; i++)
		put_site(w, d, i, comp);
	json_end_array(w);
	json_key(w, "pairs");
	json_begin_array(w);
	for (uint32_t i = 0; i < x->npairs; i++)
		put_pair(w, &x->pairs[i], comp);
	json_end_array(w);
	json_key(w, "culprits");
	json_begin_array(w);
	for (uint32_t i = 0; i < x->nculprits; i++) {
		json_begin_object(w);
		put_site_id(w, "site", x->culprits[i].site);
		put_wait(w, "late_sender", "late_sender_comp", x->culprits[i].late_sender_ns,
			 x->culprits[i].late_sender_comp_ns, comp);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}
