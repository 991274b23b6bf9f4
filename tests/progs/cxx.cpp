// cxx.cpp - C++ names to demangle: a namespaced class method and a template.
// Usage: cxx SECONDS
#include <chrono>
#include <cstdlib>

namespace physics {
struct Grid {
	__attribute__((noinline)) unsigned long relax(int sweeps);
};

unsigned long Grid::relax(int sweeps)
{
	volatile unsigned long x = 1;
	for (int i = 0; i < sweeps * 100000; i++)
		x = x * 6364136223846793005ul + 1;
	return x;
}

template <typename T> __attribute__((noinline)) T accumulate(T n)
{
	volatile T x = 0;
	for (T i = 0; i < n; i++)
		x = x + i;
	return x;
}
} // namespace physics

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? std::atof(argv[1]) : 2;
	auto start = std::chrono::steady_clock::now();
	physics::Grid g;
	unsigned long r = 0;

	while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds)
		r += g.relax(10) + physics::accumulate<long>(1000000);
	return r == 42;
}
