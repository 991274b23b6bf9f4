/*
 * test-tag-log.c - a thread's tagged intervals (sampler/tag-log.c): a
 * sample finds the interval that holds it, or none between intervals and
 * once its interval was overwritten; a sample newer than the log waits
 * and is told when its interval comes, dropped when the log moves past
 * it, counted when no room is left; and a reader racing a writer never
 * takes a tag that is not the sample's.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "tap.h"
#include "../../sampler/tag-log.h"

/* What fn was told: the tags of the samples, by node. */
struct told {
	uint32_t tag[4 * RT_TAG_WAIT];
	uint64_t w[4 * RT_TAG_WAIT];
	unsigned n;
};

static void tell(void *arg, uint32_t tag, uint32_t node, uint64_t w)
{
	struct told *t = arg;

	if (node < 4 * RT_TAG_WAIT) {
		t->tag[node] = tag;
		t->w[node] = w;
	}
	t->n++;
}

static void test_find(void)
{
	static struct rt_tag_log l;

	ok(rt_tag_log_find(&l, 5) == RT_NO_TAG, "an empty log has no tag");
	rt_tag_log_add(&l, 100, 200, 7);
	rt_tag_log_add(&l, 300, 400, 8);
	is_int(rt_tag_log_find(&l, 100), 7, "an interval holds its start");
	is_int(rt_tag_log_find(&l, 199), 7, "and what is before its end");
	ok(rt_tag_log_find(&l, 200) == RT_NO_TAG, "not its end");
	ok(rt_tag_log_find(&l, 250) == RT_NO_TAG, "nothing between intervals");
	ok(rt_tag_log_find(&l, 50) == RT_NO_TAG, "nor before the first");
	is_int(rt_tag_log_find(&l, 350), 8, "the newest interval");
	for (uint32_t i = 0; i < RT_TAGS; i++)
		rt_tag_log_add(&l, 1000 + 10 * (uint64_t)i, 1005 + 10 * (uint64_t)i, 100 + i);
	ok(rt_tag_log_find(&l, 150) == RT_NO_TAG, "an overwritten interval holds nothing");
	is_int(rt_tag_log_find(&l, 1002), 100, "the oldest kept is found");
	is_int(rt_tag_log_find(&l, 1000 + 10 * (RT_TAGS - 1) + 4), 100 + RT_TAGS - 1,
	       "and the newest");
}

static void test_wait(void)
{
	static struct rt_tag_log l;
	static struct rt_tag_wait q;
	static struct told t;

	rt_tag_log_add(&l, 100, 200, 1);
	rt_tag_sample(&l, &q, 150, 0, 3, tell, &t);
	ok(t.n == 1 && t.tag[0] == 1 && t.w[0] == 3, "a sample in a logged interval is told at once");
	rt_tag_sample(&l, &q, 120, 1, 1, tell, &t);
	rt_tag_sample(&l, &q, 50, 2, 1, tell, &t);
	is_int(t.n, 2, "one before the log's end outside its intervals is not");
	is_int(q.n, 0, "and does not wait");
	rt_tag_sample(&l, &q, 250, 3, 1, tell, &t);	/* the open interval */
	rt_tag_sample(&l, &q, 420, 4, 1, tell, &t);	/* in the call after it */
	rt_tag_sample(&l, &q, 520, 5, 1, tell, &t);	/* in the next computation */
	is_int(q.n, 3, "samples newer than the log wait");
	rt_tag_settle(&l, &q, tell, &t);
	is_int(q.n, 3, "and keep waiting while the log is as it was");
	rt_tag_log_add(&l, 200, 400, 2);
	rt_tag_settle(&l, &q, tell, &t);
	ok(t.tag[3] == 2 && q.n == 2, "the interval logged: its sample is told");
	rt_tag_log_add(&l, 500, 600, 3);
	rt_tag_settle(&l, &q, tell, &t);
	ok(t.tag[5] == 3 && q.n == 0 && t.n == 4,
	   "the next: its sample is told, the one between them dropped");
	for (uint32_t i = 0; i < RT_TAG_WAIT + 3; i++)
		rt_tag_sample(&l, &q, 700 + i, 10 + i, 1, tell, &t);
	ok(q.n == RT_TAG_WAIT && q.dropped == 3, "no room: the samples are counted, not kept");
	rt_tag_log_add(&l, 650, 700 + RT_TAG_WAIT + 3, 4);
	rt_tag_settle(&l, &q, tell, &t);
	ok(q.n == 0 && t.tag[10] == 4 && t.tag[10 + RT_TAG_WAIT - 1] == 4, "those kept are told");
}

/* A writer logs intervals [10 k, 10 k + 5) with tag k while a reader asks
 * for times in them: a tag found is always the time's. */
static struct rt_tag_log race_log;
static atomic_bool race_done;

static void *writer(void *arg)
{
	(void)arg;
	for (uint32_t k = 0; k < 2000000; k++)
		rt_tag_log_add(&race_log, 10 * (uint64_t)k, 10 * (uint64_t)k + 5, k);
	atomic_store(&race_done, true);
	return NULL;
}

static void test_race(void)
{
	pthread_t th;
	uint64_t found = 0, wrong = 0;

	if (pthread_create(&th, NULL, writer, NULL)) {
		tap_skip("a reader racing a writer", "no thread");
		return;
	}
	while (!atomic_load(&race_done)) {
		uint64_t n = atomic_load(&race_log.n), time = n > 3 ? 10 * (n - 3) + 2 : 2;
		uint32_t tag = rt_tag_log_find(&race_log, time);

		if (tag != RT_NO_TAG) {
			found++;
			wrong += tag != (uint32_t)(time / 10);
		}
	}
	pthread_join(th, NULL);
	ok(found > 0 && wrong == 0, "a reader racing a writer takes no wrong tag");
	printf("# %llu found, %llu wrong\n", (unsigned long long)found, (unsigned long long)wrong);
}

int main(void)
{
	test_find();
	test_wait();
	test_race();
	return tap_done();
}
