// A read tried first in a forked child: a crash or a hang there is an error here.
#include "lance_nd/netcdf/child_guard.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <thread>

namespace lance_nd::netcdf::internal {
namespace {

using Clock = std::chrono::steady_clock;

// How the child reports that `read` returned (OK or an error). Any other end is the library's:
// a signal, or an exit of its own (a sanitizer reports a fault and exits with code 1).
constexpr int kReadReturned = 0;
constexpr int kReadFailed = 97;

// The child writes nothing (the libraries' own diagnostics would interleave with the parent's
// output), dies of a fault as the signal says (a handler of the parent's, a sanitizer's or
// Python's, would turn the crash into an exit code), and leaves without the parent's exit
// handlers or buffered output.
[[noreturn]] void RunInChild(const std::function<Status()>& read) {
  for (const int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) {
    std::signal(signal, SIG_DFL);
  }
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd >= 0) {
    ::dup2(null_fd, STDOUT_FILENO);
    ::dup2(null_fd, STDERR_FILENO);
  }
  const bool ok = read().ok();
  ::_exit(ok ? kReadReturned : kReadFailed);
}

// How a child ended, or that it ran past its time. Neither when it cannot be waited for (a
// program that ignores SIGCHLD has its children reaped for it).
struct Waited {
  bool ended = false;
  bool timed_out = false;
  int status = 0;
};

Waited WaitFor(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::chrono::microseconds pause{100};
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return {true, false, status};
    if (done < 0 && errno != EINTR) return {};
    if (Clock::now() >= deadline) return {false, true, 0};
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(20));
  }
}

Status Crashed(const std::string& what, int signal) {
  return Status::IOError("libnetcdf crashed reading ", what, " (signal ", signal, ", ",
                         ::strsignal(signal),
                         ", in a child process that took the risk for this one): the file is "
                         "damaged, and other netCDF programs such as ncdump fail on it too; "
                         "restore or re-create it, or leave it out of the import");
}

Status ExitedEarly(const std::string& what, int code) {
  return Status::IOError("libnetcdf ended the process reading ", what, " (exit code ", code,
                         ", in a child process that took the risk for this one): the file is "
                         "damaged; restore or re-create it, or leave it out of the import");
}

// "300 s", or "300 ms" below a whole second.
std::string Duration(std::chrono::milliseconds d) {
  const auto ms = d.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

Status TimedOut(const std::string& what, std::chrono::milliseconds timeout) {
  return Status::IOError("reading ", what, " did not finish within ", Duration(timeout),
                         " (in a child process, stopped then): libnetcdf may loop on a damaged "
                         "file; check it with ncdump -h, restore or re-create it, or leave it "
                         "out of the import");
}

}  // namespace

Status SurvivesInChild(const std::string& what, const std::function<Status()>& read,
                       std::chrono::milliseconds timeout) {
  const pid_t pid = ::fork();
  if (pid < 0) return Status::OK();  // no child: read in this process only, unguarded
  if (pid == 0) RunInChild(read);
  const Waited waited = WaitFor(pid, timeout);
  if (waited.timed_out) {
    ::kill(pid, SIGKILL);
    (void)WaitFor(pid, std::chrono::seconds(10));
    return TimedOut(what, timeout);
  }
  if (!waited.ended) return Status::OK();  // cannot be waited for: unguarded
  if (WIFSIGNALED(waited.status)) return Crashed(what, WTERMSIG(waited.status));
  const int code = WIFEXITED(waited.status) ? WEXITSTATUS(waited.status) : kReadReturned;
  if (code != kReadReturned && code != kReadFailed) return ExitedEarly(what, code);
  return Status::OK();
}

}  // namespace lance_nd::netcdf::internal
