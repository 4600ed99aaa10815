#include "fresh_process.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

extern char** environ;

namespace region_bench {

using lance_nd::Result;
using lance_nd::Status;

namespace {

/// Everything the child writes to `fd` until it closes it.
std::string ReadAll(int fd) {
  std::string out;
  char buffer[256];
  ssize_t n = 0;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<std::size_t>(n));
  return out;
}

}  // namespace

Result<FreshRun> RunFresh(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return Status::IOError("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    return Status::IOError("cannot start ", argv[0], " (error ", rc, ")");
  }
  const std::string printed = ReadAll(pipe_fds[0]);
  close(pipe_fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  FreshRun run;
  run.process_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Status::IOError("the child read (", argv[1], " ", argv[2], ") failed; it printed '",
                           printed, "'");
  }
  char* end = nullptr;
  run.reported_ms = std::strtod(printed.c_str(), &end);
  if (end == printed.c_str()) {
    return Status::IOError("the child read printed '", printed, "', expected a time in ms");
  }
  return run;
}

}  // namespace region_bench
