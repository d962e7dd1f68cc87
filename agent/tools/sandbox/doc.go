// Package sandbox confines the commands of the bash tool with the kernel:
// Landlock limits where they write, a network namespace (or Landlock's TCP
// rules) cuts them off the network.
//
// # How a command is confined
//
// Landlock restricts the thread that asks and what it starts afterwards,
// so steer cannot confine itself: Command starts steer's own binary again
// (/proc/self/exe) with a hidden first argument and the plan as JSON. That
// child, in MaybeRunChild, brings up the loopback of its new network
// namespace when it has one, creates the Landlock domain on its one
// locked thread, and executes the program in its place. It reports on a
// pipe either that it is confined (a byte, just before the exec) or why it
// could not be, and Start returns that reason as a *RefusedError with
// nothing run. The namespaces are made by the parent's clone (a user
// namespace mapping steer's own uid and gid, and a network namespace), and
// the child checks that it really is in a network namespace of its own.
//
// The child calls Landlock through golang.org/x/sys/unix, not the
// go-landlock library: that library's all-threads enforcement needs libpsx,
// whose cgo link flags force external linking of all of steer, and a
// freshly linked steer then kept about 20 MB more resident (the idle TUI's
// peak 45 MB → 65 MB). One thread that executes the program needs no
// all-threads enforcement.
//
// # What is confined
//
// Reading and executing stay allowed everywhere. Under WorkspaceWrite a
// command may create, change, move or remove files only below the
// workspace, the tool's temp directory (its TMPDIR), the Policy's
// Writable paths, the paths one call was granted (Scope.Extra), and the
// harmless devices (/dev/null, zero, full, random, urandom, tty); its own
// stdout and stderr are pipes, which Landlock never confines. ReadOnly is
// the same without the workspace. Landlock does not cover chmod, chown,
// timestamps or extended attributes, and Describe says so. Network Deny
// gives the command a network namespace with only its own loopback; where
// the kernel does not let steer make one, Landlock's TCP rules (ABI 4)
// deny connect and bind instead, which leaves UDP and Multipath TCP open,
// and Describe says that too.
//
// # Nothing on a best-effort basis
//
// plan, a pure function of the kernel's Support and the Policy, either
// covers the whole policy or refuses it (ErrUnenforceable): confined
// writes need Landlock ABI 3 (the first that stops truncate and lets files
// move between writable directories), a denied network needs a namespace
// or ABI 4. The child applies the Landlock rights without best effort, so
// a kernel that cannot enforce one fails the command instead of running it
// unconfined. Detect probes the kernel once; Describe renders the same
// decisions as the lines /permissions shows.
//
// # Saying what was stopped
//
// The kernel's refusal is EACCES, which a command prints as it prints any
// permission error. Cmd.Blocked reads a failed command's output for lines
// reporting a permission error on a path outside what the command could
// write but that steer itself may write (so the file's own permissions
// did not stop it), and, under Deny, for lines reporting an unreachable
// host; each becomes a Block with the path to grant.
package sandbox
