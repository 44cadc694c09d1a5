package docket

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"
)

// Options configure Open.
type Options struct {
	// Export is the canonical JSONL file.
	Export string
	// Prefix is set by init. Otherwise the index's prefix is used, or the
	// one the export's first id carries.
	Prefix string
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Workflow maps statuses onto classes; nil means DefaultWorkflow.
	Workflow Workflow
	// Warn receives notes about repairs a command made or could not make
	// (an export rewritten from the index, an export that stays stale while
	// a read goes on); nil discards them.
	Warn func(msg string)
	// Hints words the hints of the errors a warning carries, in the front
	// end's terms (D101); a hint it lacks is left out.
	Hints map[Hint]string
	// IDLog, when set, is a file every id Create draws is appended to
	// before the transaction commits, so that ids drawn here outlive
	// damage to the index (dk-vy8); the index's wiring reads it back when
	// it builds a new index.
	IDLog string
	// Fallback, when set, returns an empty in-memory index. A read whose
	// sync needs a write the index refuses (a full disk, a read-only
	// index) loads the index and the export into it, syncs there, and is
	// served from it, with a note; nothing is written. nil: such a read
	// fails (exit 2, nothing changed).
	Fallback func() Index
	// Root, when set, is the directory every file of the tracker lies
	// beneath (the repository root): the export and the temp files of its
	// rewrites, the index and every file beside it. None is reached
	// through a symbolic link or a directory named .git below Root (D67);
	// with Root "", each file is held to that beneath its own directory.
	Root string
	// Pending, when set, is the pending journal: when a write commits to
	// the index and its export rewrite fails (exit 3), the records it put
	// are appended there, so they outlive damage to the index; Open puts
	// them back into an index that lacks them, and every export rewrite
	// that succeeds removes the journal (D67). Open defaults it to
	// PendingLog of the index.
	Pending string
	// Distrust, when set, says why the index is not this clone's cache
	// (its files are committed to git): Open does not open it. Reads are
	// served from the export in an in-memory index (Fallback), and every
	// write is refused with Distrust, nothing changed (D67).
	Distrust string
	// Step, when set (by fault-injection tests only, in a child process
	// they SIGKILL), is called at each step of a write: "commit" before the
	// index commit, "committed" after it, "temp" once the new export is
	// fsynced under its temp name, "renamed" after the rename and before
	// the hash is recorded.
	Step func(step string)
}

// Service is a docket tracker: an index kept in line with its export.
type Service struct {
	idx    Index
	opts   Options
	prefix string
	files  Files
	// refuse, when set, is returned by every write: the service reads
	// from the export in memory only (Options.Distrust).
	refuse error

	// seen remembers the export's size and mtime when this process last
	// found it in sync, so a long-lived reader (docket mcp) does not hash
	// the whole file on every call (dk-aut).
	seenMu sync.Mutex
	seen   fileKey
	// exportWalk is the export path's components, for unchanged's
	// lstats; nil when the path cannot be located (then every read takes
	// the checked stat, which says why).
	exportWalk Walk

	// view, when set, is the in-memory index reads are served from because
	// the index could not be synced with the export whose hash is viewHash
	// (dk-x2p); the next sync that succeeds drops it.
	viewMu   sync.Mutex
	view     Index
	viewHash string
}

// fileKey identifies a version of the export cheaply. verified is when the
// hash was last found equal; a key is trusted only for a file whose mtime
// is older than verified minus racyWindow, because a write within the same
// clock tick can keep size and mtime (git's "racily clean" rule).
type fileKey struct {
	size     int64
	mtime    time.Time
	verified time.Time
	// file is the checked stat the key was taken from (Files.Stat: the
	// path beneath the root, through no link), nil for a key read from
	// the index; unchanged compares a plain lstat of the path with it.
	file os.FileInfo
}

const racyWindow = time.Second

func fileKeyOf(fi os.FileInfo, verified time.Time) fileKey {
	return fileKey{size: fi.Size(), mtime: fi.ModTime(), verified: verified, file: fi}
}

// trusts reports whether fi is the version of the export k was verified
// on: the same size and mtime, and an mtime older than the verification by
// more than racyWindow.
func (k fileKey) trusts(fi os.FileInfo) bool {
	return k.size == fi.Size() && k.mtime.Equal(fi.ModTime()) && fi.ModTime().Before(k.verified.Add(-racyWindow))
}

// trustsFile is trusts for a key this process took from a checked stat:
// fi must also be that very file (device and inode), so an export
// replaced by another file of the same size and mtime (a rename over it,
// a checkout) is hashed again.
func (k fileKey) trustsFile(fi os.FileInfo) bool {
	return k.file != nil && os.SameFile(k.file, fi) && k.trusts(fi)
}

// The index's export_key meta value is "hash size mtime verified" (the
// times in Unix nanoseconds): the export whose hash is recorded was found
// with that size and mtime at verified. It vouches for the export only
// while export_hash is still that hash, so a rewrite or a rebuild, which
// record a new hash, leave it void without touching it.
func (k fileKey) meta(hash string) string {
	return fmt.Sprintf("%s %d %d %d", hash, k.size, k.mtime.UnixNano(), k.verified.UnixNano())
}

func parseFileKey(v, hash string) (fileKey, bool) {
	var h string
	var size, mtime, verified int64
	if n, err := fmt.Sscanf(v, "%s %d %d %d", &h, &size, &mtime, &verified); err != nil || n != 4 || h != hash || hash == "" {
		return fileKey{}, false
	}
	return fileKey{size: size, mtime: time.Unix(0, mtime), verified: time.Unix(0, verified)}, true
}

// recordKey stores k in the index for the next process when k already
// trusts the file and the stored key (old) differs. It is a cache: a
// failure (a full disk, a read-only index, a busy lock) is ignored, and
// the key is written only while the index still records hash.
func (s *Service) recordKey(ctx context.Context, k fileKey, hash, old string) {
	v := k.meta(hash)
	if v == old || !k.mtime.Before(k.verified.Add(-racyWindow)) {
		return
	}
	s.idx.Write(ctx, func(w Writer) error {
		now, dirty, err := exportState(w)
		if err != nil || now != hash || dirty {
			return err
		}
		return w.SetMeta("export_key", v)
	})
}

var _ Store = (*Service)(nil)

// ErrNoTracker is returned by Open when neither an index nor an export
// exists and no prefix was given: there is no tracker here yet.
var ErrNoTracker = errors.New("no docket tracker here")

// New brings idx in line with the export: rebuilt from it if the export
// changed, or the export rewritten if a previous writer died between its
// commit and its rewrite. The service owns idx from here and closes it.
func New(ctx context.Context, idx Index, opts Options) (*Service, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Workflow == nil {
		opts.Workflow = DefaultWorkflow
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	if opts.Step == nil {
		opts.Step = func(string) {}
	}
	files, err := NewFiles(opts.Root)
	if err != nil {
		idx.Close()
		return nil, err
	}
	s := &Service{idx: idx, opts: opts, files: files}
	s.exportWalk, _ = files.WalkOf(opts.Export)
	if opts.Distrust != "" {
		s.refuse = fmt.Errorf("%w: %s", ErrDistrusted, opts.Distrust)
	}
	if err := s.init(ctx); err != nil {
		idx.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the index.
func (s *Service) Close() error {
	s.setView(nil, "")
	return s.idx.Close()
}

// Prefix returns the id prefix of the tracker.
func (s *Service) Prefix() string { return s.prefix }

// Workflow returns the status mapping the service uses.
func (s *Service) Workflow() Workflow { return s.opts.Workflow }

// init records the prefix, then syncs the index with the export. When the
// prefix is already the one asked for, nothing is written, so reads work
// on a full disk.
func (s *Service) init(ctx context.Context) error {
	var p string
	err := s.idx.Read(ctx, func(r Reader) error {
		var err error
		p, err = r.Meta("prefix")
		return err
	})
	if err != nil {
		return err
	}
	if s.opts.Prefix != "" && p != s.opts.Prefix {
		err = s.idx.Write(ctx, func(w Writer) error {
			p, err := w.Meta("prefix")
			if err != nil {
				return err
			}
			if err := ValidPrefix(s.opts.Prefix); err != nil {
				return err
			}
			if p != "" && p != s.opts.Prefix {
				return Invalidf("this tracker's prefix is %q, not %q", p, s.opts.Prefix)
			}
			return w.SetMeta("prefix", s.opts.Prefix)
		})
		if err != nil {
			return err
		}
		p = s.opts.Prefix
	}
	s.prefix = p
	if err := s.ensureSynced(ctx); err != nil {
		return err
	}
	if s.prefix != "" {
		return nil
	}
	// Another process may have rebuilt the index from the export, and
	// recorded the prefix its ids carry, between the read above and the
	// sync (dk-1wf): read it again.
	return s.idx.Read(ctx, func(r Reader) error {
		var err error
		s.prefix, err = r.Meta("prefix")
		return err
	})
}

// write runs fn in a write transaction after bringing the index in line
// with the export. When changed is true (or the sync found the export
// stale) the transaction marks the export dirty and the export is rewritten
// from the committed state afterwards. fn may be nil: then write only
// syncs.
func (s *Service) write(ctx context.Context, changed bool, fn func(w Writer) error) error {
	return s.writeJournaled(ctx, changed, true, fn)
}

// writeJournaled is write; journal says whether the records fn puts go to
// the pending journal when the export cannot be rewritten (false for a
// write that puts the journal's own records back).
func (s *Service) writeJournaled(ctx context.Context, changed, journal bool, fn func(w Writer) error) error {
	if s.refuse != nil && fn != nil {
		return s.refuse
	}
	var export bool
	var put recorder
	err := s.idx.Write(ctx, func(w Writer) error {
		stale, err := s.syncTx(w, s.opts.Warn)
		if err != nil {
			return err
		}
		if fn != nil {
			// The index may run this again after a busy lock: only the
			// last run's records are the committed ones.
			put = recorder{Writer: w}
			if err := fn(&put); err != nil {
				return err
			}
		}
		export = changed || stale
		if export {
			// Marked in the same transaction as the change: a writer killed
			// after this commit and before its export rewrite leaves a flag
			// the next start acts on.
			if err := w.SetMeta("export_dirty", "1"); err != nil {
				return err
			}
		}
		s.opts.Step("commit")
		return nil
	})
	if err != nil || !export {
		return err
	}
	if s.refuse != nil {
		// A sync of the in-memory view: the export is never written.
		return nil
	}
	s.opts.Step("committed")
	if err := s.idx.Write(ctx, s.rewriteExport); err != nil {
		// The change is committed and the dirty flag says so: this is not
		// "nothing changed", and the next command repairs the export. Its
		// records go to the pending journal too, so that a damaged index
		// does not take them with it before that repair.
		kept := ""
		if journal && len(put.lines) > 0 {
			kept = s.keepPending(put.lines)
		}
		return &Error{Code: CodeUnexported, Hint: HintRewrite, Detail: kept, Err: err}
	}
	return nil
}

// recorder is a Writer that keeps the lines of the records put through
// it, for the pending journal.
type recorder struct {
	Writer
	lines [][]byte
}

func (r *recorder) Put(i Issue, line []byte) error {
	if err := r.Writer.Put(i, line); err != nil {
		return err
	}
	r.lines = append(r.lines, append([]byte(nil), line...))
	return nil
}

// syncTx brings the index in line with the export inside a write
// transaction. When the export's hash differs from the one recorded at the
// last rewrite, the export changed under the index (a pull, a checkout, a
// merge, a hand edit) and the index is rebuilt from it; an export that does
// not parse leaves the index untouched and returns the bad line. stale
// reports that the export must be rewritten from the index: it is missing,
// or the last writer died between its commit and its rewrite.
func (s *Service) syncTx(w Writer, warn func(string)) (stale bool, err error) {
	data, err := s.files.ReadFile(s.opts.Export)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("read export: %w", err)
	}
	stored, dirty, err := exportState(w)
	if err != nil {
		return false, err
	}
	h := Hash(data)
	if h == stored {
		return dirty, nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// Records are never deleted, so an empty export beside an index
		// that holds issues was truncated (a full disk, a stray
		// redirection), not emptied on purpose: it is treated like a
		// missing export and rewritten from the index.
		n, err := w.Count(Query{})
		if err != nil {
			return false, err
		}
		if n > 0 {
			warn(fmt.Sprintf("the export %s is empty but the index holds %d issues; records are never deleted, so it is rewritten from the index", s.opts.Export, n))
			return true, nil
		}
	}
	if dirty {
		// The index holds a committed change the export never got (a
		// rewrite failed, exit 3), and the export changed since (a pull, a
		// checkout): a rebuild would drop that change. Merge by id instead
		// and rewrite the export from the result.
		return true, s.mergeDirty(w, data, warn)
	}
	if err := s.rebuild(w, data); err != nil {
		return false, err
	}
	if err := w.SetMeta("export_hash", h); err != nil {
		return false, err
	}
	return false, w.SetMeta("export_dirty", "0")
}

// mergeDirty brings an export that changed under a dirty index into the
// index without losing either side's records: a record only in the export
// is added, one only in the index is kept (records are never deleted), and
// one in both keeps the higher version, or, at equal versions, the later
// update. Each record where the two sides differed is named in a note.
func (s *Service) mergeDirty(w Writer, data []byte, warn func(string)) error {
	issues, err := ReadJSONL(s.opts.Export, bytes.NewReader(data), "")
	if err != nil {
		return fmt.Errorf("the export cannot be read, so it was not merged into the index (nothing changed); fix the line or restore the file with git: %w", err)
	}
	var added, differed []string
	for _, e := range issues {
		cur, err := w.Get(e.ID)
		switch {
		case errors.Is(err, ErrNotFound):
			added = append(added, e.ID)
		case err != nil:
			return err
		default:
			a, _ := MarshalLine(cur)
			b, _ := MarshalLine(e)
			if bytes.Equal(a, b) {
				continue
			}
			differed = append(differed, e.ID)
			if cur.Version > e.Version || (cur.Version == e.Version && cur.UpdatedAt >= e.UpdatedAt) {
				continue // the index's record is the newer
			}
		}
		if err := put(w, e); err != nil {
			return err
		}
		if _, err := w.Allocate(e.ID); err != nil {
			return err
		}
	}
	total, err := w.Count(Query{})
	if err != nil {
		return err
	}
	kept := total - len(issues) // records the export lacks
	if len(added) == 0 && len(differed) == 0 && kept == 0 {
		// The export already holds the index's state: the last rewrite
		// replaced the file but was stopped before recording its hash.
		return nil
	}
	msg := fmt.Sprintf("the export %s changed while the index held a committed change it never got; merged by id instead of rebuilding, so neither is lost: %d records added from the export, %d kept from the index", s.opts.Export, len(added), kept)
	if len(differed) > 0 {
		msg += fmt.Sprintf("; %s differed on the two sides and kept the higher version (or the later update)", strings.Join(differed, ", "))
	}
	warn(msg + "; the export is rewritten from the result")
	return nil
}

// exportState reads the hash of the export this index last wrote and
// whether a committed change is still waiting to be exported.
func exportState(r Reader) (hash string, dirty bool, err error) {
	if hash, err = r.Meta("export_hash"); err != nil {
		return "", false, err
	}
	d, err := r.Meta("export_dirty")
	return hash, d == "1", err
}

// rebuild replaces the index's issues with the export's. Allocated ids are
// kept, so ids drawn on another branch stay taken.
func (s *Service) rebuild(w Writer, data []byte) error {
	issues, err := ReadJSONL(s.opts.Export, bytes.NewReader(data), "")
	if err != nil {
		return fmt.Errorf("the export cannot be read, so the index was not rebuilt from it (nothing changed); fix the line or restore the file with git: %w", err)
	}
	prefix := s.prefix
	if prefix == "" {
		prefix = inferPrefix(issues)
	}
	if err := w.Clear(); err != nil {
		return err
	}
	for _, i := range issues {
		if err := put(w, i); err != nil {
			return err
		}
		if _, err := w.Allocate(i.ID); err != nil {
			return err
		}
	}
	if s.prefix == "" && prefix != "" {
		s.prefix = prefix
		return w.SetMeta("prefix", prefix)
	}
	return nil
}

// inferPrefix returns the most common id prefix of the export (the first
// in order on a tie) that is a valid own prefix, for an index created from
// a fresh clone: imported records of other trackers are usually fewer.
func inferPrefix(issues []Issue) string {
	count := map[string]int{}
	best := ""
	for _, i := range issues {
		p, _, _ := SplitID(i.ID)
		if ValidPrefix(p) != nil {
			continue
		}
		count[p]++
		if best == "" || count[p] > count[best] {
			best = p
		}
	}
	return best
}

// put stores a normalized record with its canonical line.
func put(w Writer, i Issue) error {
	i.Normalize()
	line, err := MarshalLine(i)
	if err != nil {
		return err
	}
	return w.Put(i, line)
}

// rewriteExport writes the committed state to the export inside a write
// transaction, so two writers cannot interleave their rewrites and leave an
// older state on disk: temp file in the same directory, fsync, rename,
// fsync of the directory, then the new hash is recorded and the dirty flag
// cleared.
//
// The lines go from the index to the file through a small buffer, hashed on
// the way, not joined in memory first: at 100k issues the export is 37 MiB.
func (s *Service) rewriteExport(w Writer) error {
	h := sha256.New()
	err := s.files.writeAtomic(s.opts.Export, func(f io.Writer) error {
		// h is Hash of the bytes written.
		b := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<16)
		if err := w.Lines(func(line []byte) error {
			b.Write(line)
			return b.WriteByte('\n')
		}); err != nil {
			return err
		}
		return b.Flush()
	}, os.Getpid(), s.opts.Step)
	if err != nil {
		return err
	}
	// The export holds every record the index holds: the pending
	// journal's are in it.
	s.dropPending()
	if err := w.SetMeta("export_hash", hex.EncodeToString(h.Sum(nil))); err != nil {
		return err
	}
	return w.SetMeta("export_dirty", "0")
}

// exportOf joins the stored canonical lines in id order.
func exportOf(r Reader) ([]byte, error) {
	var buf bytes.Buffer
	err := r.Lines(func(line []byte) error {
		buf.Write(line)
		buf.WriteByte('\n')
		return nil
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ensureSynced is the read path's check: a cheap comparison of the export's
// hash in a read transaction, and a locked sync only when it differs.
func (s *Service) ensureSynced(ctx context.Context) error {
	if s.unchanged() {
		return nil
	}
	fi, statErr := s.files.Stat(s.opts.Export)
	replaced := false
	if statErr == nil {
		s.seenMu.Lock()
		k := s.seen
		s.seenMu.Unlock()
		if k.trustsFile(fi) {
			return nil // unchanged since it was last found in sync
		}
		// Another file than the one this process verified (renamed over
		// it): the index's key, which knows a size and an mtime only, is
		// not asked; the file is hashed.
		replaced = k.file != nil && !os.SameFile(k.file, fi)
	}
	var keyed string // the export_key the index holds, when it is read
	if statErr == nil && !replaced {
		// A key an earlier process recorded lets this one skip the hash
		// too (dk-pit): one short read instead of hashing the whole file
		// in every CLI process.
		var trusted bool
		err := s.idx.Read(ctx, func(r Reader) error {
			stored, dirty, err := exportState(r)
			if err != nil {
				return err
			}
			if keyed, err = r.Meta("export_key"); err != nil {
				return err
			}
			k, ok := parseFileKey(keyed, stored)
			trusted = ok && !dirty && k.trusts(fi)
			return nil
		})
		if err == nil && trusted {
			s.seenMu.Lock()
			s.seen = fileKeyOf(fi, time.Now())
			s.seenMu.Unlock()
			s.setView(nil, "")
			return nil
		}
	}
	verified := time.Now()
	data, readErr := s.files.ReadFile(s.opts.Export)
	if err := readErr; err == nil {
		var stored string
		var dirty bool
		err := s.idx.Read(ctx, func(r Reader) error {
			var err error
			stored, dirty, err = exportState(r)
			return err
		})
		if err == nil && stored == Hash(data) && !dirty {
			if statErr == nil && int64(len(data)) == fi.Size() {
				k := fileKeyOf(fi, verified)
				s.seenMu.Lock()
				s.seen = k
				s.seenMu.Unlock()
				s.recordKey(ctx, k, stored, keyed)
			}
			s.setView(nil, "")
			return nil
		}
	}
	err := s.write(ctx, false, nil)
	if errors.Is(err, ErrUnexported) {
		// The index is in sync and committed; only the export is behind.
		// A read goes on (a full disk must not stop list or show), and the
		// next command tries again.
		s.opts.Warn(Worded(err, s.opts.Hints))
		s.setView(nil, "")
		return nil
	}
	if err != nil && readErr == nil && s.fallback(ctx, data, err) {
		return nil
	}
	if err == nil {
		s.setView(nil, "")
	}
	return err
}

// unchanged is the sync check's first step in a long-lived reader
// (dk-msc): an lstat of each component of the export's path by absolute
// path (Walk.quickStat), in place of the checked stat that opens an
// os.Root and walks it. It trusts only the very file (device and inode)
// the checked stat found when this process last verified the export, a
// regular file still at the size and mtime verified, out of the racy
// window, reached through directories that are no links: an edit, a
// rename over the export, a link put in its place or in a directory's,
// or a deleted export each fail it and take the checked path, which
// refuses what D67 refuses.
func (s *Service) unchanged() bool {
	s.seenMu.Lock()
	k := s.seen
	s.seenMu.Unlock()
	if k.file == nil {
		return false
	}
	fi, ok := s.exportWalk.quickStat()
	return ok && k.trustsFile(fi)
}

func (s *Service) setView(v Index, hash string) {
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	if s.view != nil && s.view != v {
		s.view.Close()
	}
	s.view, s.viewHash = v, hash
}

// fallback serves reads without writing when the sync needs a write the
// index refused (cause): the index's records and export state are loaded
// into an in-memory index (Options.Fallback), the export data is synced
// into it exactly as into the index (rebuilt from, or merged by id when
// the index holds a change the export never got), and reads use it until a
// sync succeeds. It reports whether it did; an export that does not parse,
// or a cancelled context, is not worked around.
func (s *Service) fallback(ctx context.Context, data []byte, cause error) bool {
	if s.opts.Fallback == nil || errors.Is(cause, ErrInvalid) || ctx.Err() != nil {
		return false
	}
	h := Hash(data)
	s.viewMu.Lock()
	same := s.view != nil && s.viewHash == h
	s.viewMu.Unlock()
	if same {
		return true
	}
	var lines []byte
	var hash, prefix string
	var dirty bool
	err := s.idx.Read(ctx, func(r Reader) error {
		var err error
		if lines, err = exportOf(r); err != nil {
			return err
		}
		if prefix, err = r.Meta("prefix"); err != nil {
			return err
		}
		hash, dirty, err = exportState(r)
		return err
	})
	if err != nil {
		return false
	}
	held, err := ReadJSONL("the index", bytes.NewReader(lines), "")
	if err != nil {
		return false
	}
	var notes []string
	mem := s.opts.Fallback()
	err = mem.Write(ctx, func(w Writer) error {
		for _, i := range held {
			if err := put(w, i); err != nil {
				return err
			}
		}
		flag := "0"
		if dirty {
			flag = "1"
		}
		for k, v := range map[string]string{"prefix": prefix, "export_hash": hash, "export_dirty": flag} {
			if err := w.SetMeta(k, v); err != nil {
				return err
			}
		}
		_, err := s.syncTx(w, func(msg string) { notes = append(notes, msg) })
		return err
	})
	if err != nil {
		mem.Close()
		return false
	}
	s.setView(mem, h)
	msg := fmt.Sprintf("the index cannot be brought in line with the export %s (%v); this read is served from the export and the index's committed records in memory, and nothing was written; the next command that can write rebuilds the index", s.opts.Export, cause)
	for _, n := range notes {
		msg += "; in memory only: " + n
	}
	s.opts.Warn(msg)
	return true
}

// reader returns the index reads are served from: the working index, or
// the in-memory one a fallback built.
func (s *Service) reader() Index {
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	if s.view != nil {
		return s.view
	}
	return s.idx
}

// read syncs, then runs fn on a snapshot.
func (s *Service) read(ctx context.Context, fn func(r Reader) error) error {
	if err := s.ensureSynced(ctx); err != nil {
		return err
	}
	return s.reader().Read(ctx, fn)
}

// Export returns the canonical export of the committed state.
func (s *Service) Export(ctx context.Context) ([]byte, error) {
	var data []byte
	err := s.read(ctx, func(r Reader) error {
		var err error
		data, err = exportOf(r)
		return err
	})
	return data, err
}

// RewriteExport writes the canonical export of the index to the export
// path, for an export that was hand-edited into a valid but non-canonical
// form, or deleted.
func (s *Service) RewriteExport(ctx context.Context) error {
	if s.refuse != nil {
		return s.refuse
	}
	if err := s.ensureSynced(ctx); err != nil {
		return err
	}
	return s.idx.Write(ctx, s.rewriteExport)
}
