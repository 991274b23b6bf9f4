/*
 * test-clock.c - the runtime's clock (sampler/clock.c): readings never go
 * back on a thread and stay beside CLOCK_MONOTONIC across anchors, when
 * an anchor's extrapolation ran ahead of the clock (the thread's clock
 * then stands still until the clock passes it) and when the counter went
 * back.  Where the time stamp counter cannot serve, every reading is the
 * clock's own, and the anchors' cases are skipped.
 */
#include <stdbool.h>

#include "../../sampler/clock.h"
#include "tap.h"

#define MS 1000000ull
/* How far a reading may stray from the clock read around it: an
 * anchor's pair and its rate's error over one span, tens of microseconds
 * on a quiet host, more where the host takes the CPU from the pairs'
 * readings.  Far below AHEAD, the error that the cases make. */
#define NEAR_NS MS
/* How far ahead of the clock the case's anchor runs: longer than a busy
 * host may take the CPU from the test while its clock stands still. */
#define AHEAD (50 * MS)

/* Readings for `ns` of the clock: false when one went back or strayed
 * from the clock read around it by more than NEAR_NS (with stand_still,
 * a reading may be ahead of it: the clock stands still). */
static bool read_for(uint64_t ns, uint64_t *last, bool stand_still)
{
	uint64_t end = rt_clock_ns(CLOCK_MONOTONIC) + ns;
	bool good = true;

	for (;;) {
		uint64_t before = rt_clock_ns(CLOCK_MONOTONIC), t = rt_now_ns(),
			 after = rt_clock_ns(CLOCK_MONOTONIC);

		if (t < *last) {
			printf("#   went back by %llu ns\n", (unsigned long long)(*last - t));
			good = false;
		}
		if (t + NEAR_NS < before || (!stand_still && t > after + NEAR_NS)) {
			printf("#   %llu ns while the clock read %llu..%llu\n", (unsigned long long)t,
			       (unsigned long long)before, (unsigned long long)after);
			good = false;
		}
		*last = t;
		if (!good || after >= end)
			return good;
	}
}

/* Read until a new anchor serves (the last one's span over, a reading's
 * pair not interrupted: a busy host may interrupt them all for a while),
 * *last the reading that made it.  False when none did within AHEAD. */
static bool anchor_anew(uint64_t *last)
{
	uint64_t was = rt_clock_here.tsc, end = rt_clock_ns(CLOCK_MONOTONIC) + AHEAD;

	do
		*last = rt_now_ns();
	while ((rt_clock_here.tsc == was || !rt_clock_here.mult) &&
	       rt_clock_ns(CLOCK_MONOTONIC) < end);
	return rt_clock_here.tsc != was && rt_clock_here.mult;
}

int main(void)
{
	struct rt_clock_anchor *a = &rt_clock_here;
	uint64_t last = 0, x;

	rt_clock_start();
	ok(read_for(5 * MS, &last, false), "readings over 5 ms never go back and follow the clock");
	if (!anchor_anew(&last)) {
		tap_skip("an anchor ahead of the clock", "the time stamp counter does not serve here");
		tap_skip("the counter gone back", "the time stamp counter does not serve here");
		return tap_done();
	}

	/* a new anchor that tells AHEAD ahead, then expires */
	anchor_anew(&last);
	a->ns += AHEAD;
	x = rt_now_ns();
	ok(x >= last + AHEAD - MS, "an anchor ahead tells ahead");
	last = x;
	a->tsc -= a->span;
	ok(read_for(MS, &last, true), "its end does not take the clock back");
	ok(!a->mult, "no anchor serves while the clock is behind what the last told");
	ok(read_for(AHEAD + 10 * MS, &last, true), "the clock stands still, then goes on");
	ok(read_for(3 * MS, &last, false), "and follows the clock again");
	ok(a->mult, "an anchor serves again");

	/* the counter reads before the anchor's */
	a->tsc += 2 * a->span;
	ok(read_for(3 * MS, &last, true), "the counter gone back does not take the clock back");
	ok(read_for(3 * MS, &last, false), "and the clock follows again");
	return tap_done();
}
