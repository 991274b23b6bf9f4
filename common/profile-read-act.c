/*
 * profile-read-act.c - the thread activity's records (docs/format.md
 * "Thread activity"): act, once, says which event's samples were
 * classified; act_thread and act_node give a thread's and a call-path
 * node's columns.
 */
#include "profile-read-int.h"

int rec_act(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t event = 0;

	if (pr_since(ps, "act", PROFILE_VERSION_ACT))
		return -1;
	if (p->act_on)
		return pr_err(ps, "second 'act' record");
	if (pr_index(ps, c, "event", p->nevents, &event) ||
	    pr_u64(ps, c, "window_ns", &p->act_window_ns) || pr_done(ps, c))
		return -1;
	if (!p->act_window_ns)
		return pr_err(ps, "'act' record with window_ns 0");
	p->act_on = 1;
	p->act_event = event;
	return 0;
}

/* The columns of an act_thread or act_node record. */
static int act_values(struct parser *ps, struct cursor *c, uint64_t *v)
{
	for (int k = 0; k < PROF_ACTS; k++)
		if (pr_u64(ps, c, prof_act_names[k], &v[k]))
			return -1;
	return pr_done(ps, c);
}

int rec_act_thread(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = 0;

	if (!p->act_on)
		return pr_err(ps, "'act_thread' record without an 'act' record");
	if (pr_index(ps, c, "thread", p->nthreads, &i))
		return -1;
	return act_values(ps, c, p->threads[i].act);
}

int rec_act_node(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_act_node *a;
	uint32_t node = 0;

	if (!p->act_on)
		return pr_err(ps, "'act_node' record without an 'act' record");
	if (pr_index(ps, c, "node", p->tree.nnodes, &node))
		return -1;
	if (p->nact_nodes && node <= p->act_nodes[p->nact_nodes - 1].node)
		return pr_err(ps, "act_node %u after node %u (they go by increasing node)",
			      node, p->act_nodes[p->nact_nodes - 1].node);
	if (pr_grow(ps, (void **)&p->act_nodes, p->nact_nodes, &ps->act_nodes_alloc, sizeof(*a)))
		return -1;
	a = &p->act_nodes[p->nact_nodes++];
	a->node = node;
	return act_values(ps, c, a->v);
}
