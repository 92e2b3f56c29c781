package archive

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// helperEnv makes the test binary a writer that records until it is
// killed (TestKilledMidWrite).
const helperEnv = "LOCATOR_ARCHIVE_WRITE_FOREVER"

func TestMain(m *testing.M) {
	if path := os.Getenv(helperEnv); path != "" {
		writeForever(path)
	}
	os.Exit(m.Run())
}

func writeForever(path string) {
	w, err := Create(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; ; i++ {
		r := exchange(nil, fmt.Sprintf("gopher://localhost/0/%d", i), "gopher", "x\r\n", noise(64<<10+i))
		if err := w.Record(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		r.Close()
	}
}

// TestKilledMidWrite: a writer killed (SIGKILL) while it writes leaves
// a file that this package's reader and warcio read alike, every record
// whole up to the last.
func TestKilledMidWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.warc.gz")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if st, err := os.Stat(path); err == nil && st.Size() > 4<<20 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the writer wrote less than 4 MiB in 20 s")
		}
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	// Without the index: the file read record by record.
	bare := filepath.Join(t.TempDir(), "bare.warc.gz")
	data, _ := os.ReadFile(path)
	os.WriteFile(bare, data, 0o644)
	r, err := Open(bare)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	scanned := 0
	for _, cs := range r.byKey {
		scanned += len(cs)
	}
	if p := r.Problems(); len(p) > 1 {
		t.Errorf("problems %v: at most the last record may be cut", p)
	}
	wr := peer.Warcio(t, "testdata/warccheck.cjs", bare)
	responses := 0
	for i, rec := range wr {
		if rec.Error != "" {
			if i != len(wr)-1 {
				t.Errorf("warcio stopped before the end: %s", rec.Error)
			}
			continue
		}
		if rec.BlockOK == nil || !*rec.BlockOK {
			if i == len(wr)-1 {
				// The record the kill cut: warcio reads the octets of
				// its gzip member that were written, and its digest
				// does not match (or it stops with an error, above).
				continue
			}
			t.Errorf("warcio: record at %d: block digest wrong", rec.Offset)
		}
		if rec.Type == "response" {
			responses++
		}
	}
	if responses != scanned || scanned < 10 {
		t.Errorf("warcio read %d responses, this reader %d (of a file of %d octets)", responses, scanned, len(data))
	}
	// With the index, which lacks the lines of the last records.
	r2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	indexed := 0
	for _, cs := range r2.byKey {
		indexed += len(cs)
	}
	// The index lacks the lines still waiting in the writer's memory;
	// the reader reads what follows its last record from the file.
	if indexed != scanned || len(r2.Problems()) > 1 {
		t.Errorf("%d records found with the index, the file holds %d whole; problems %v", indexed, scanned, r2.Problems())
	}
}

// TestDiskFull: a disk that fills is a WriteError, and the file holds
// every record before it, whole.
func TestDiskFull(t *testing.T) {
	dir := smallDisk(t)
	path := filepath.Join(dir, "full.warc.gz")
	w, err := Create(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	var werr error
	for i := range 100 {
		werr = w.Record(exchange(t, fmt.Sprintf("gopher://localhost/0/%d", i), "gopher", "x\r\n", noise(100<<10)))
		if werr != nil {
			break
		}
		written++
	}
	var we *WriteError
	if !errors.As(werr, &we) || !errors.Is(werr, syscall.ENOSPC) {
		t.Fatalf("after %d records: %v, want a WriteError of ENOSPC", written, werr)
	}
	w.Close() // sorting the index may fail too: the unsorted one stays
	n, problems, responses := readFilled(t, path)
	if n != written || len(problems) > 0 {
		t.Errorf("%d records written, %d indexed; problems %v", written, n, problems)
	}
	if responses != written {
		t.Errorf("warcio read %d responses, %d were written", responses, written)
	}
}

// TestDiskFullQueued: a disk that fills while records Record copied
// wait to be written is a WriteError of the record that failed,
// returned by a later Record or by Close, and the file holds whole
// records only.
func TestDiskFullQueued(t *testing.T) {
	dir := smallDisk(t)
	path := filepath.Join(dir, "full.warc.gz")
	w, err := Create(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	var werr error
	for i := range 400 {
		calls++
		if werr = w.Record(exchange(t, fmt.Sprintf("gopher://localhost/0/%d", i), "gopher", "x\r\n", noise(copyBelow/4))); werr != nil {
			break
		}
	}
	if cerr := w.Close(); werr == nil {
		werr = cerr
	}
	var we *WriteError
	if !errors.As(werr, &we) || !errors.Is(werr, syscall.ENOSPC) || !strings.Contains(werr.Error(), "the record of gopher://localhost/0/") {
		t.Fatalf("after %d records: %v, want a WriteError of ENOSPC naming the record", calls, werr)
	}
	n, problems, responses := readFilled(t, path)
	if n == 0 || n >= calls || len(problems) > 0 {
		t.Errorf("%d records written of %d; problems %v", n, calls, problems)
	}
	if responses != n {
		t.Errorf("warcio read %d responses, this reader %d", responses, n)
	}
}

// smallDisk mounts a tmpfs of 1 MiB (as root) for the test, and returns
// its folder.
func smallDisk(t *testing.T) string {
	t.Helper()
	peer.RequireRoot(t, "mounting a 1 MiB tmpfs")
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// readFilled reads the WARC file at path, on a disk that filled: the
// captures its index and the Reader find, the Reader's problems, and the
// responses warcio reads in a copy of it (on a disk with room), failing
// the test for any record warcio finds bad.
func readFilled(t *testing.T, path string) (captures int, problems []error, responses int) {
	t.Helper()
	copyDir := t.TempDir()
	for _, f := range []string{path, path + ".cdxj"} {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(copyDir, filepath.Base(f)), b, 0o644)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, cs := range r.byKey {
		captures += len(cs)
	}
	wr := peer.Warcio(t, "testdata/warccheck.cjs", filepath.Join(copyDir, "full.warc.gz"))
	for _, rec := range wr {
		if rec.Error != "" || rec.BlockOK == nil || !*rec.BlockOK {
			t.Errorf("warcio: %+v", rec)
		}
		if rec.Type == "response" {
			responses++
		}
	}
	return captures, r.Problems(), responses
}
