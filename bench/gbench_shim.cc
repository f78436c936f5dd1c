// SPDX-License-Identifier: GPL-2.0
/*
 * The C shim over Google Benchmark: the only C++ in mmscale. It forwards
 * registration and the in-body calls, adds the seeds' trimmed statistics to
 * every benchmark, and calls the harness's timing hooks exactly where GB
 * starts and stops its timer, so PAPI counts the timed region only.
 */
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <set>
#include <utility>
#include <vector>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include "mmscale/gbench.h"
#include "mmscale/json.h"

/*
 * GB 1.7 marks its CSV reporter deprecated but still offers
 * --benchmark_format=csv; mmscale keeps offering what GB offers.
 */
/* mmscale_gbench_add_json_context's entries, added to GB's context after a console has printed it. */
static std::vector<std::pair<std::string, std::string>> json_only_context;

static void add_json_only_context()
{
	for (const auto &kv : json_only_context)
		benchmark::AddCustomContext(kv.first, kv.second);
	json_only_context.clear();
}

static benchmark::BenchmarkReporter *new_csv_reporter()
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	return new benchmark::CSVReporter();
#pragma GCC diagnostic pop
}

/*
 * Every thread of a run waits here twice: after thread 0 ran the setup hook,
 * and before thread 0 runs the teardown hook. The count is the run's thread
 * count (one registration may have several). The mutex also orders the
 * setup's writes before every thread's reads.
 */
struct run_barrier {
	std::mutex m;
	std::condition_variable cv;
	int waiting = 0;
	unsigned long generation = 0;

	void wait(int threads)
	{
		std::unique_lock<std::mutex> lock(m);
		unsigned long g = generation;

		if (++waiting == threads) {
			waiting = 0;
			generation++;
			cv.notify_all();
			return;
		}
		cv.wait(lock, [&] { return generation != g; });
	}
};

struct mmscale_bench {
	benchmark::internal::Benchmark *gb;
	mmscale_bench_fn fn;
	void *arg;
	mmscale_timing_hooks hooks;
	mmscale_run_hook setup;
	mmscale_run_hook teardown;
	mmscale_label_hook label;
	mmscale_describe_hook describe;
	run_barrier barrier;
	char setup_error[256];	/* written by thread 0 before the first barrier */
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
 * The registration whose benchmark ran last: GB reports a benchmark's runs
 * right after its last repetition (with or without random interleaving),
 * so the runs ReportRuns is given are this registration's.
 */
std::atomic<mmscale_bench *> last_ran_bench{ nullptr };

/* The benchmark running now, for an interrupt message (read by a signal handler). */
std::atomic<const char *> running_benchmark{ nullptr };
std::atomic<bool> any_benchmark_started{ false };

/*
 * "mmscale_runs", the results' contract, the last member of a JSON
 * document beside GB's "context" and "benchmarks" (in the results file and
 * a JSON display alike): for every run name reported, an object saying
 * what its runs are (the registration's describe hook), so that no reader
 * splits run names.
 */
class RunsContract {
public:
	/* The registration of r's run name, the first time the name is reported. */
	void note(const benchmark::BenchmarkReporter::Run &r)
	{
		std::string name = r.run_name.str();
		mmscale_bench *b = last_ran_bench.load();

		if (!b || !b->describe || !names_.insert(name).second)
			return;
		benchmark::BenchmarkName bare = r.run_name;

		bare.time_type.clear();
		runs_.push_back({ name, bare.str(), b });
	}

	/* ',\n  "mmscale_runs": {...}': the member, to follow the benchmarks list. */
	std::string member() const
	{
		char *text = nullptr;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		bool any = false;
		std::string member;

		/* Out of memory: no member at all (readers then name runs by their names). */
		if (!out)
			return member;
		std::fputs(",\n  \"mmscale_runs\": {", out);
		for (const Entry &e : runs_) {
			char *members = nullptr;
			size_t members_len = 0;
			FILE *f = open_memstream(&members, &members_len);

			if (!f)
				continue;
			e.bench->describe(e.bench->arg, f);
			if (std::fclose(f) != 0 || !members) {
				std::free(members);
				continue;
			}
			std::fputs(any ? ",\n    " : "\n    ", out);
			mmscale_json_string(out, e.run_name.c_str());
			std::fputs(": {\"name\": ", out);
			mmscale_json_string(out, e.name.c_str());
			std::fprintf(out, "%s%s}", members_len ? ", " : "", members);
			std::free(members);
			any = true;
		}
		std::fputs(any ? "\n  }" : "}", out);
		if (std::fclose(out) == 0 && text)
			member = text;
		std::free(text);
		return member;
	}

	/* A rendered JSON document ("...\n  ]\n}\n") with the member added at its end. */
	void add_to(std::string &text) const
	{
		size_t at = text.rfind("\n}");

		if (at != std::string::npos)
			text.insert(at, member());
	}

private:
	struct Entry {
		std::string run_name;	/* GB's */
		std::string name;	/* the same without its time word (real_time, manual_time) */
		mmscale_bench *bench;
	};

	std::set<std::string> names_;	/* every run name reported, once */
	std::vector<Entry> runs_;	/* in the order first reported */
};

RunsContract runs_contract;

/* GB's JSON display, ending its document with mmscale_runs as the results file does. */
class JSONDisplay : public benchmark::JSONReporter {
public:
	void Finalize() override
	{
		/* JSONReporter::Finalize writes "\n  ]\n}\n": the same, with the member. */
		GetOutputStream() << "\n  ]" << runs_contract.member() << "\n}\n";
	}
};

/*
 * Between GB and the display: says when the run goes ahead (GB found
 * benchmarks for the filter), names every run that ended in error, and with
 * a results file writes it atomically after every finished benchmark: all
 * runs so far, as a complete JSON (or CSV) document, to FILE.partial
 * renamed over FILE. An interrupted run leaves every finished case, valid,
 * and nothing of the case that was running.
 */
class RunReporter : public benchmark::BenchmarkReporter {
public:
	RunReporter(benchmark::BenchmarkReporter *display, bool csv_display, const char *path,
		    bool csv, const mmscale_report_hooks *hooks)
		: display_(display), csv_display_(csv_display), path_(path ? path : ""), csv_(csv),
		  hooks_(*hooks) {}

	bool ReportContext(const Context &context) override
	{
		/* GB's reporters read the custom context when they report it. */
		bool json_display = dynamic_cast<benchmark::JSONReporter *>(display_) != nullptr;
		bool ok;

		if (hooks_.started)
			hooks_.started();
		context_.reset(new Context(context));
		if (json_display)
			add_json_only_context();
		ok = display_->ReportContext(context);
		add_json_only_context();
		write_file();
		return ok;
	}

	void ReportRuns(const std::vector<Run> &given) override
	{
		std::vector<Run> added;

		if (hooks_.add_counters) {
			added = given;
			for (Run &r : added)
				add_counters(r);
		}
		const std::vector<Run> &runs = hooks_.add_counters ? added : given;

		/*
		 * GB's CSV reporter takes its header's counters from the first
		 * ReportRuns it is given and aborts on a later run with another
		 * counter (vmstat/mod has folds, vmstat/shepherd percpu_sum_slots):
		 * a CSV display gets every run at once, at the end, as the
		 * results file does.
		 */
		if (!csv_display_)
			display_->ReportRuns(runs);
		for (const Run &r : runs)
			if (r.error_occurred && r.run_type == Run::RT_Iteration) {
				errored_++;
				std::string name = r.benchmark_name();

				if (hooks_.failed && failed_names_.insert(name).second)
					hooks_.failed(name.c_str(), r.error_message.c_str());
			}
		runs_.insert(runs_.end(), runs.begin(), runs.end());
		for (const Run &r : runs)
			runs_contract.note(r);
		finished_benchmarks++;
		write_file();
		running_benchmark = nullptr;
	}

	void Finalize() override
	{
		if (csv_display_ && !runs_.empty())
			display_->ReportRuns(runs_);
		display_->Finalize();
		write_file(true);
	}

	bool ok() const { return ok_; }
	int errored() const { return errored_; }
	std::atomic<int> finished_benchmarks{ 0 };	/* read by the interrupt handler */
	/* Finished benchmarks the results file on disk holds; -1: no file (yet). */
	std::atomic<int> in_file{ -1 };

private:
	/* The hook's counters (--project's projected_*), added to one result before anyone reads it. */
	void add_counters(Run &r)
	{
		std::vector<const char *> names;
		std::vector<double> values;
		const char *added_names[MMSCALE_ADDED_COUNTERS];
		double added_values[MMSCALE_ADDED_COUNTERS];
		char label[512] = "";
		int n;

		if (r.error_occurred || (r.run_type == Run::RT_Aggregate &&
					 r.aggregate_name != "mean" && r.aggregate_name != "median" &&
					 r.aggregate_name != "trimmed_mean"))
			return;
		for (const auto &c : r.counters) {
			names.push_back(c.first.c_str());
			values.push_back(c.second.value);
		}
		n = hooks_.add_counters(names.data(), values.data(), names.size(), added_names,
					added_values, label, sizeof(label));
		for (int i = 0; i < n && i < MMSCALE_ADDED_COUNTERS; i++)
			r.counters[added_names[i]] = benchmark::Counter(added_values[i]);
		if (label[0] && r.run_type == Run::RT_Iteration)
			r.report_label += (r.report_label.empty() ? "" : "; ") + std::string(label);
	}

	void write_file(bool final = false)
	{
		std::ostringstream os;
		std::unique_ptr<benchmark::BenchmarkReporter> file;

		if (path_.empty())
			return;
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
		runs_written_ = finished_benchmarks.load();
		file->Finalize();

		std::string text = os.str();
		keep_first_date(text);
		if (!csv_)
			runs_contract.add_to(text);
		write_text(text, final);
	}

	/*
	 * The first failure (disk full, an I/O error at close) is kept with
	 * its reason, nothing more is written, and no file is left that looks
	 * complete: FILE.partial and an earlier FILE of this run are removed.
	 */
	void write_text(const std::string &text, bool final)
	{
		std::string tmp;
		FILE *f;
		int saved = 0;

		decide_where();
		if (!ok_ || (!atomic_ && !final))
			return;
		tmp = atomic_ ? target_ + ".partial" : path_;
		f = std::fopen(tmp.c_str(), atomic_ ? "w" : "a");
		if (!f) {
			fail_write(errno);
			return;
		}
		if (std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fflush(f) != 0)
			saved = errno ? errno : EIO;
		if (std::fclose(f) != 0 && !saved)
			saved = errno ? errno : EIO;
		if (!saved && atomic_ && std::rename(tmp.c_str(), target_.c_str()) != 0)
			saved = errno;
		if (saved) {
			if (atomic_)
				std::remove(tmp.c_str());
			fail_write(saved);
			return;
		}
		in_file = (int)runs_written_;
	}

	/*
	 * Decided once, at the first write: a regular file (or a new one) is
	 * rewritten after every benchmark, FILE.partial renamed over it;
	 * through a symlink, over its target (the link stays a link; a
	 * dangling one's target is created). Anything else is written once,
	 * at the end, in place, since rewriting it would append document
	 * after document: a device, a FIFO (/dev/stdout into a pipe), and the
	 * file standard output or error is (--benchmark_out=/dev/stdout >
	 * out.json: renaming over it would cut the shell's file loose).
	 */
	void decide_where()
	{
		struct stat lst, st, fd_st;
		bool exists;

		if (decided_)
			return;
		decided_ = true;
		target_ = path_;
		if (lstat(path_.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
			char *real = realpath(path_.c_str(), nullptr);
			char link[4096];
			ssize_t n;

			if (real) {
				target_ = real;
				std::free(real);
			} else if ((n = readlink(path_.c_str(), link, sizeof(link) - 1)) > 0) {
				size_t slash = path_.rfind('/');

				link[n] = '\0';
				target_ = link;
				if (link[0] != '/' && slash != std::string::npos)
					target_ = path_.substr(0, slash + 1) + link;
			}
		}
		exists = stat(target_.c_str(), &st) == 0;
		atomic_ = !exists || S_ISREG(st.st_mode);
		for (int fd = 1; atomic_ && exists && fd <= 2; fd++)
			if (fstat(fd, &fd_st) == 0 && fd_st.st_dev == st.st_dev &&
			    fd_st.st_ino == st.st_ino)
				atomic_ = false;
		if (target_.compare(0, 6, "/proc/") == 0 || target_.compare(0, 5, "/dev/") == 0)
			atomic_ = false;
	}

	void fail_write(int err)
	{
		ok_ = false;
		error_ = std::strerror(err);
		/* in_file >= 0: an earlier, complete FILE of this run is on disk. */
		if (atomic_ && in_file >= 0 && std::remove(target_.c_str()) == 0)
			error_ += "; the earlier, incomplete results file is removed";
		in_file = -1;
	}

public:
	const std::string &error() const { return error_; }

private:
	/*
	 * GB's JSON context carries the time it is rendered; the file is
	 * rendered again after every benchmark, but the run started once: keep
	 * the first rendering's date (rendered beside the display's, which GB
	 * reads from the clock on its own: the two can straddle a second).
	 */
	void keep_first_date(std::string &text)
	{
		static const std::string key = "\"date\": \"";
		size_t at = text.find(key), end;

		if (at == std::string::npos || (end = text.find('"', at + key.size())) == std::string::npos)
			return;
		if (date_.empty())
			date_ = text.substr(at, end - at);
		else
			text.replace(at, end - at, date_);
	}

	benchmark::BenchmarkReporter *display_;
	bool csv_display_;
	std::string date_;
	std::string path_;
	bool csv_;
	mmscale_report_hooks hooks_;
	bool ok_ = true;
	bool decided_ = false;		/* decide_where ran: */
	bool atomic_ = true;		/*   FILE.partial renamed over target_ */
	std::string target_;
	int runs_written_ = 0;
	std::string error_;
	int errored_ = 0;
	std::set<std::string> failed_names_;
	std::unique_ptr<Context> context_;
	std::vector<Run> runs_;
};

std::atomic<RunReporter *> active_reporter{ nullptr };

/*
 * GB's console, but every counter exact: GB prints counters in a
 * human-readable form (2079.42 as 2.07942k, 134144 as 134.144k), and the
 * exact counts are the one thing mmscale's console must not round. A whole
 * number prints as one; any other value with six significant digits.
 * Everything else (names, times, iterations, colour, errors) is GB's own:
 * its line is printed without counters and label, then they follow.
 */
class ExactConsoleReporter : public benchmark::ConsoleReporter {
public:
	using benchmark::ConsoleReporter::ConsoleReporter;

	static std::string exact(double v)
	{
		char buf[64];

		if (std::isfinite(v) && std::fabs(v) < 9007199254740992.0 && v == std::nearbyint(v))
			snprintf(buf, sizeof(buf), "%.0f", v);
		else
			snprintf(buf, sizeof(buf), "%.6g", v);
		return buf;
	}

protected:
	void PrintRunData(const Run &run) override
	{
		bool percent = run.run_type == Run::RT_Aggregate &&
			       run.aggregate_unit == benchmark::StatisticUnit::kPercentage;

		if (run.error_occurred || percent || (run.counters.empty() && run.report_label.empty())) {
			benchmark::ConsoleReporter::PrintRunData(run);
			return;
		}
		Run bare = run;
		std::ostream &out = GetOutputStream();
		std::ostringstream line;

		bare.counters.clear();
		bare.report_label.clear();
		SetOutputStream(&line);
		benchmark::ConsoleReporter::PrintRunData(bare);
		SetOutputStream(&out);
		/* GB ends its line with "\n", then (in colour) the reset code. */
		std::string text = line.str();
		size_t newline = text.rfind('\n');

		if (newline != std::string::npos)
			text.erase(newline, 1);
		out << text;
		for (const auto &c : run.counters) {
			const char *unit = "";

			if (c.second.flags & benchmark::Counter::kIsRate)
				unit = (c.second.flags & benchmark::Counter::kInvert) ? "s" : "/s";
			out << ' ' << c.first << '=' << exact(c.second.value) << unit;
		}
		if (!run.report_label.empty())
			out << ' ' << run.report_label;
		out << '\n';
	}
};

/*
 * One run of a registration on one of its threads: thread 0 (GB runs it on
 * the main thread) sets up before any body starts and tears down after
 * every body ended, so hooks need no GB Setup/Teardown (those take a plain
 * function pointer without an argument, which capped registrations).
 */
void run_one_thread(mmscale_bench *b, benchmark::State &state)
{
	mmscale_state s{ &state, b, false, false };
	bool hooks = b->setup || b->teardown || b->label;
	bool first = state.thread_index() == 0;

	if (first)
		last_ran_bench = b;

	if (hooks) {
		if (first) {
			b->setup_error[0] = '\0';
			if (b->setup && b->setup(b->arg, b->setup_error, sizeof(b->setup_error)) != 0 &&
			    !b->setup_error[0])
				snprintf(b->setup_error, sizeof(b->setup_error), "setup failed");
		}
		b->barrier.wait(state.threads());
		if (b->setup_error[0]) {
			state.SkipWithError(b->setup_error);
			return;	/* no teardown: a failed setup cleans up after itself */
		}
	}
	b->fn(&s, b->arg);
	if (s.started && !s.stopped)
		timing_stop(&s);
	if (hooks) {
		char err[256] = "";

		b->barrier.wait(state.threads());
		if (first && b->teardown && b->teardown(b->arg, err, sizeof(err)) != 0)
			state.SkipWithError(err[0] ? err : "teardown check failed");
		if (first && b->label) {
			char label[1024] = "";

			b->label(b->arg, label, sizeof(label));
			if (label[0])
				state.SetLabel(label);
		}
	}
}

} // namespace

extern "C" {

int mmscale_gbench_finished(void)
{
	RunReporter *r = active_reporter.load();

	return r ? r->finished_benchmarks.load() : 0;
}

int mmscale_gbench_in_file(void)
{
	RunReporter *r = active_reporter.load();

	return r ? r->in_file.load() : -1;
}

void mmscale_gbench_set_running(const char *title)
{
	running_benchmark = title;
	any_benchmark_started = true;
}

const char *mmscale_gbench_running(bool *started)
{
	*started = any_benchmark_started.load();
	return running_benchmark.load();
}

mmscale_bench *mmscale_bench_register(const char *name, mmscale_bench_fn fn, void *arg)
{
	mmscale_bench *b = new mmscale_bench();

	b->fn = fn;
	b->arg = arg;
	b->gb = benchmark::RegisterBenchmark(name, [b](benchmark::State &state) {
		run_one_thread(b, state);
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

void mmscale_bench_run_hooks(mmscale_bench *b, mmscale_run_hook setup,
			     mmscale_run_hook teardown)
{
	b->setup = setup;
	b->teardown = teardown;
}

void mmscale_bench_label_hook(mmscale_bench *b, mmscale_label_hook label)
{
	b->label = label;
}

void mmscale_bench_describe_hook(mmscale_bench *b, mmscale_describe_hook describe)
{
	b->describe = describe;
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

void mmscale_gbench_add_json_context(const char *key, const char *value)
{
	json_only_context.emplace_back(key, value);
}

size_t mmscale_gbench_run(const char *display_format, const char *out_path, const char *out_format,
			  const mmscale_report_hooks *hooks, mmscale_gbench_outcome *outcome)
{
	std::unique_ptr<benchmark::BenchmarkReporter> display;
	std::string fmt = display_format ? display_format : "console";
	static const mmscale_report_hooks no_hooks = {};

	if (fmt == "json")
		display.reset(new JSONDisplay());
	else if (fmt == "csv")
		display.reset(new_csv_reporter());
	else
		display.reset(new ExactConsoleReporter(
			isatty(1) ? benchmark::ConsoleReporter::OO_Color
				  : benchmark::ConsoleReporter::OO_None));
	RunReporter reporter(display.get(), fmt == "csv", out_path,
			     out_format && std::string(out_format) == "csv",
			     hooks ? hooks : &no_hooks);
	active_reporter = &reporter;
	size_t n = benchmark::RunSpecifiedBenchmarks(&reporter);
	active_reporter = nullptr;
	running_benchmark = nullptr;
	outcome->matched = n;
	outcome->errored = reporter.errored();
	outcome->out_ok = reporter.ok();
	snprintf(outcome->out_error, sizeof(outcome->out_error), "%s", reporter.error().c_str());
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
