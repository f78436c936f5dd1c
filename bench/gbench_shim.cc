// SPDX-License-Identifier: GPL-2.0
/*
 * The C shim over Google Benchmark: the only C++ in mmscale. It forwards
 * registration and the in-body calls, adds the seeds' trimmed statistics to
 * every benchmark, and calls the harness's timing hooks exactly where GB
 * starts and stops its timer, so PAPI counts the timed region only.
 */
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <benchmark/benchmark.h>

#include "mmscale/gbench.h"

/*
 * GB 1.7 marks its CSV reporter deprecated but still offers
 * --benchmark_format=csv; mmscale keeps offering what GB offers.
 */
static benchmark::BenchmarkReporter *new_csv_reporter()
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	return new benchmark::CSVReporter();
#pragma GCC diagnostic pop
}

struct mmscale_bench {
	benchmark::internal::Benchmark *gb;
	mmscale_bench_fn fn;
	void *arg;
	mmscale_timing_hooks hooks;
};

struct mmscale_state {
	benchmark::State *gb;
	const mmscale_bench *b;
	bool started;
	bool stopped;
};

namespace {

std::vector<mmscale_bench *> &benches()
{
	static std::vector<mmscale_bench *> all;
	return all;
}

/*
 * GB's Setup/Teardown take a plain function pointer with no user argument,
 * so each registration gets its own trampoline from a fixed table of
 * template instances, indexed by slot.
 */
constexpr size_t kRunHookSlots = 1024;
struct run_hook_slot {
	mmscale_run_hook setup;
	mmscale_run_hook teardown;
	void *arg;
};
std::array<run_hook_slot, kRunHookSlots> run_hook_slots;
size_t run_hook_slots_used;

template <size_t I> void setup_trampoline(const benchmark::State &)
{
	if (run_hook_slots[I].setup)
		run_hook_slots[I].setup(run_hook_slots[I].arg);
}

template <size_t I> void teardown_trampoline(const benchmark::State &)
{
	if (run_hook_slots[I].teardown)
		run_hook_slots[I].teardown(run_hook_slots[I].arg);
}

using gb_hook = void (*)(const benchmark::State &);

template <size_t... I>
constexpr std::array<gb_hook, sizeof...(I)> make_setups(std::index_sequence<I...>)
{
	return { { &setup_trampoline<I>... } };
}

template <size_t... I>
constexpr std::array<gb_hook, sizeof...(I)> make_teardowns(std::index_sequence<I...>)
{
	return { { &teardown_trampoline<I>... } };
}

const std::array<gb_hook, kRunHookSlots> setups =
	make_setups(std::make_index_sequence<kRunHookSlots>{});
const std::array<gb_hook, kRunHookSlots> teardowns =
	make_teardowns(std::make_index_sequence<kRunHookSlots>{});

double trimmed_mean(const std::vector<double> &v)
{
	return mmscale_trimmed_mean(v.data(), v.size());
}

double trimmed_stddev(const std::vector<double> &v)
{
	return mmscale_trimmed_stddev(v.data(), v.size());
}

inline void timing_start(mmscale_state *s)
{
	s->started = true;
	if (s->b->hooks.start)
		s->b->hooks.start(s);
}

inline void timing_stop(mmscale_state *s)
{
	s->stopped = true;
	if (s->b->hooks.stop)
		s->b->hooks.stop(s);
}

/*
 * The results file, written atomically after every finished benchmark: all
 * runs so far, as a complete JSON (or CSV) document, to FILE.partial and
 * renamed over FILE. An interrupted run leaves every finished case, valid,
 * and nothing of the case that was running.
 */
class AtomicFileReporter : public benchmark::BenchmarkReporter {
public:
	AtomicFileReporter(benchmark::BenchmarkReporter *display, std::string path, bool csv)
		: display_(display), path_(std::move(path)), csv_(csv) {}

	bool ReportContext(const Context &context) override
	{
		context_.reset(new Context(context));
		write_file();
		return display_->ReportContext(context);
	}

	void ReportRuns(const std::vector<Run> &runs) override
	{
		display_->ReportRuns(runs);
		runs_.insert(runs_.end(), runs.begin(), runs.end());
		write_file();
		finished_benchmarks++;
	}

	void Finalize() override
	{
		display_->Finalize();
		write_file();
	}

	bool ok() const { return ok_; }
	std::atomic<int> finished_benchmarks{ 0 };	/* read by the interrupt handler */

private:
	void write_file()
	{
		std::ostringstream os;
		std::unique_ptr<benchmark::BenchmarkReporter> file;

		if (csv_)
			file.reset(new_csv_reporter());
		else
			file.reset(new benchmark::JSONReporter());
		file->SetOutputStream(&os);
		file->SetErrorStream(&os);
		if (context_)
			file->ReportContext(*context_);
		if (!runs_.empty())
			file->ReportRuns(runs_);
		file->Finalize();

		std::string tmp = path_ + ".partial";
		std::ofstream out(tmp, std::ios::trunc);
		out << os.str();
		out.close();
		if (!out || std::rename(tmp.c_str(), path_.c_str()) != 0) {
			std::remove(tmp.c_str());
			ok_ = false;
		}
	}

	benchmark::BenchmarkReporter *display_;
	std::string path_;
	bool csv_;
	bool ok_ = true;
	std::unique_ptr<Context> context_;
	std::vector<Run> runs_;
};

std::atomic<AtomicFileReporter *> active_file_reporter{ nullptr };

} // namespace

extern "C" {

int mmscale_gbench_finished(void)
{
	AtomicFileReporter *r = active_file_reporter.load();

	return r ? r->finished_benchmarks.load() : 0;
}

mmscale_bench *mmscale_bench_register(const char *name, mmscale_bench_fn fn, void *arg)
{
	mmscale_bench *b = new mmscale_bench{ nullptr, fn, arg, {} };

	b->gb = benchmark::RegisterBenchmark(name, [b](benchmark::State &state) {
		mmscale_state s{ &state, b, false, false };

		b->fn(&s, b->arg);
		if (s.started && !s.stopped)
			timing_stop(&s);
	});
	b->gb->ComputeStatistics("trimmed_mean", trimmed_mean);
	b->gb->ComputeStatistics("trimmed_stddev", trimmed_stddev);
	benches().push_back(b);
	return b;
}

void mmscale_bench_args(mmscale_bench *b, const int64_t *args, int n)
{
	b->gb->Args(std::vector<int64_t>(args, args + n));
}

void mmscale_bench_arg_names(mmscale_bench *b, const char *const *names, int n)
{
	b->gb->ArgNames(std::vector<std::string>(names, names + n));
}

void mmscale_bench_range(mmscale_bench *b, int64_t lo, int64_t hi, int multiplier)
{
	if (multiplier > 1)
		b->gb->RangeMultiplier(multiplier);
	b->gb->Range(lo, hi);
}

void mmscale_bench_dense_range(mmscale_bench *b, int64_t lo, int64_t hi, int step)
{
	b->gb->DenseRange(lo, hi, step);
}

void mmscale_bench_threads(mmscale_bench *b, int threads)
{
	b->gb->Threads(threads);
}

void mmscale_bench_thread_range(mmscale_bench *b, int lo, int hi)
{
	b->gb->ThreadRange(lo, hi);
}

void mmscale_bench_real_time(mmscale_bench *b)
{
	b->gb->UseRealTime();
}

void mmscale_bench_manual_time(mmscale_bench *b)
{
	b->gb->UseManualTime();
}

void mmscale_bench_min_time(mmscale_bench *b, double seconds)
{
	b->gb->MinTime(seconds);
}

void mmscale_bench_repetitions(mmscale_bench *b, int n)
{
	b->gb->Repetitions(n);
}

void mmscale_bench_iterations(mmscale_bench *b, int64_t n)
{
	b->gb->Iterations(n);
}

void mmscale_bench_timing_hooks(mmscale_bench *b, const mmscale_timing_hooks *h)
{
	b->hooks = *h;
}

int mmscale_bench_run_hooks(mmscale_bench *b, mmscale_run_hook setup,
			    mmscale_run_hook teardown)
{
	if (run_hook_slots_used == kRunHookSlots)
		return -1;
	size_t slot = run_hook_slots_used++;

	run_hook_slots[slot] = { setup, teardown, b->arg };
	b->gb->Setup(setups[slot]);
	b->gb->Teardown(teardowns[slot]);
	return 0;
}

bool mmscale_keep_running(mmscale_state *s)
{
	if (__builtin_expect(!s->started, 0))
		timing_start(s);
	if (__builtin_expect(s->gb->KeepRunning(), 1))
		return true;
	timing_stop(s);
	return false;
}

bool mmscale_keep_running_batch(mmscale_state *s, int64_t n)
{
	if (__builtin_expect(!s->started, 0))
		timing_start(s);
	if (__builtin_expect(s->gb->KeepRunningBatch(n), 1))
		return true;
	timing_stop(s);
	return false;
}

int mmscale_thread_index(const mmscale_state *s)
{
	return s->gb->thread_index();
}

int mmscale_threads(const mmscale_state *s)
{
	return s->gb->threads();
}

int64_t mmscale_range(const mmscale_state *s, int i)
{
	return s->gb->range(static_cast<std::size_t>(i));
}

int64_t mmscale_max_iterations(const mmscale_state *s)
{
	return s->gb->max_iterations;
}

int64_t mmscale_iterations(const mmscale_state *s)
{
	return s->gb->iterations();
}

void mmscale_pause_timing(mmscale_state *s)
{
	s->gb->PauseTiming();
	if (s->b->hooks.pause)
		s->b->hooks.pause(s);
}

void mmscale_resume_timing(mmscale_state *s)
{
	if (s->b->hooks.resume)
		s->b->hooks.resume(s);
	s->gb->ResumeTiming();
}

void mmscale_set_iteration_time(mmscale_state *s, double seconds)
{
	s->gb->SetIterationTime(seconds);
}

void mmscale_skip_with_error(mmscale_state *s, const char *msg)
{
	s->gb->SkipWithError(msg);
}

bool mmscale_error_occurred(const mmscale_state *s)
{
	return s->gb->error_occurred();
}

void mmscale_set_label(mmscale_state *s, const char *label)
{
	s->gb->SetLabel(label);
}

void mmscale_counter_set(mmscale_state *s, const char *name, double value,
			 unsigned int flags)
{
	int f = benchmark::Counter::kDefaults;

	if (flags & MMSCALE_COUNTER_RATE)
		f |= benchmark::Counter::kIsRate;
	if (flags & MMSCALE_COUNTER_AVG_THREADS)
		f |= benchmark::Counter::kAvgThreads;
	if (flags & MMSCALE_COUNTER_AVG_ITERATIONS)
		f |= benchmark::Counter::kAvgIterations;
	s->gb->counters[name] =
		benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(f));
}

void *mmscale_state_arg(const mmscale_state *s)
{
	return s->b->arg;
}

int mmscale_gbench_initialize(int *argc, char **argv, const char **bad)
{
	benchmark::Initialize(argc, argv);
	if (*argc > 1) {
		*bad = argv[1];
		return -1;
	}
	return 0;
}

void mmscale_gbench_add_context(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}

size_t mmscale_gbench_run(const char *display_format, const char *out_path, const char *out_format,
			  int *out_ok)
{
	std::unique_ptr<benchmark::BenchmarkReporter> display;
	std::string fmt = display_format ? display_format : "console";

	if (fmt == "json")
		display.reset(new benchmark::JSONReporter());
	else if (fmt == "csv")
		display.reset(new_csv_reporter());
	else
		display.reset(new benchmark::ConsoleReporter(
			isatty(1) ? benchmark::ConsoleReporter::OO_Color
				  : benchmark::ConsoleReporter::OO_None));
	*out_ok = 1;
	if (!out_path)
		return benchmark::RunSpecifiedBenchmarks(display.get());

	AtomicFileReporter file(display.get(), out_path,
				out_format && std::string(out_format) == "csv");
	active_file_reporter = &file;
	size_t n = benchmark::RunSpecifiedBenchmarks(&file);
	active_file_reporter = nullptr;
	*out_ok = file.ok();
	return n;
}

void mmscale_gbench_shutdown(void)
{
	benchmark::Shutdown();
	for (mmscale_bench *b : benches())
		delete b;
	benches().clear();
}

} // extern "C"
