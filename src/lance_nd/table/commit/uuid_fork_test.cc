// NewUuid in a forked child differs from the parent's next one: the generator is reseeded per
// process, so a child never reuses the parent's data file or transaction names.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <string>

#include "lance_nd/table/commit.h"

namespace lance_nd::table {
namespace {

TEST(NewUuid, DiffersBetweenParentAndForkedChild) {
  for (int trial = 0; trial < 20; ++trial) {
    (void)NewUuid();  // the generator exists in the parent before the fork
    std::array<int, 2> fds{};
    ASSERT_EQ(::pipe(fds.data()), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const std::string u = NewUuid();
      const auto n = ::write(fds[1], u.data(), u.size());
      ::_exit(n == static_cast<ssize_t>(u.size()) ? 0 : 1);
    }
    ::close(fds[1]);
    const std::string parent = NewUuid();
    std::array<char, 64> buf{};
    const auto n = ::read(fds[0], buf.data(), buf.size());
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_EQ(n, static_cast<ssize_t>(parent.size()));
    EXPECT_NE(std::string(buf.data(), static_cast<std::size_t>(n)), parent);
  }
}

}  // namespace
}  // namespace lance_nd::table
