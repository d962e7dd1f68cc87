package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestTempDirOwner(t *testing.T) {
	for name, want := range map[string]int{
		"steer-bash-4242-123456": 4242,
		"steer-bash-1-9":         1,
		"steer-bash-123456":      0, // made before the pid was in the name: its owner is unknown
		"steer-bash-4242-":       0,
		"steer-bash--123":        0,
		"steer-bash-0-123":       0, // kill(0, 0) would ask about this process group
		"steer-bash--5-123":      0,
		"steer-bash-+5-123":      0,
		"steer-bash-05-123":      0,
		"steer-bash-x-123":       0,
		"tools-test-4242-1":      0,
		"steer-e2e-4242":         0,
	} {
		if got := tempDirOwner(name); got != want {
			t.Errorf("tempDirOwner(%q) = %d, want %d", name, got, want)
		}
	}
}

func TestRemoveStaleTempDirs(t *testing.T) {
	const live, dead = 100, 200
	root, elsewhere := t.TempDir(), t.TempDir()
	mkdir := func(name string) string {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(p, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "sub", "f"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := mkdir("steer-bash-200-1")
	kept := []string{
		mkdir("steer-bash-100-2"),               // its process runs
		mkdir("steer-bash-200"),                 // the old name, without a pid
		mkdir("tools-test-200-3"),               // not a bash tool's
		filepath.Join(root, "steer-bash-200-4"), // a file
		filepath.Join(root, "steer-bash-200-5"), // a link to a directory
	}
	if err := os.WriteFile(kept[3], nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, kept[4]); err != nil {
		t.Fatal(err)
	}
	var asked []int
	alive := func(pid int) bool {
		asked = append(asked, pid)
		return pid == live
	}
	if err := removeStaleTempDirs(root, alive); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("%s, whose process is gone, is still there (%v)", stale, err)
	}
	for _, p := range append(kept, elsewhere) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	for _, pid := range asked {
		if pid != live && pid != dead {
			t.Errorf("asked whether pid %d is alive", pid)
		}
	}
}

func TestRemoveStaleTempDirsKeepsOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("only root can give a directory to another user")
	}
	root := t.TempDir()
	other := filepath.Join(root, "steer-bash-200-1")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	if err := os.Chown(other, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := removeStaleTempDirs(root, func(int) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(other); err != nil {
		t.Errorf("another user's directory was removed: %v", err)
	}
}

func TestProcessAlive(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Error("this process is not alive")
	}
	if !processAlive(1) {
		t.Error("init is not alive")
	}
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	if processAlive(exited.Process.Pid) {
		t.Errorf("process %d, exited and reaped, is alive", exited.Process.Pid)
	}
}

func TestRemoveTempDirs(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var d tempDir
	first, err := d.get()
	if err != nil {
		t.Fatal(err)
	}
	if want := tempPrefix + strconv.Itoa(os.Getpid()) + "-"; !strings.HasPrefix(filepath.Base(first), want) {
		t.Errorf("temp directory %s, want its name to start with %s", first, want)
	}
	if again, _ := d.get(); again != first {
		t.Errorf("a second get gave %s, want %s again", again, first)
	}
	if err := os.WriteFile(filepath.Join(first, "left"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := RemoveTempDirs(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(first); !os.IsNotExist(err) {
		t.Errorf("%s is still there after RemoveTempDirs (%v)", first, err)
	}
	second, err := d.get()
	if err != nil {
		t.Fatal(err)
	}
	if second == first {
		t.Errorf("a command after RemoveTempDirs got the removed %s", first)
	}
	if _, err := os.Stat(second); err != nil {
		t.Errorf("the new temp directory: %v", err)
	}
	if err := RemoveTempDirs(); err != nil {
		t.Fatal(err)
	}
}
