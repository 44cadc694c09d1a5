package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// CheckChildCommand is the hidden first argument with which docket runs
// one register check for docket mcp in a child process (RunCheckChild):
// docket's command line hands it over before parsing any flag.
const CheckChildCommand = "__mcp-register-check"

// checkChildStderr is how much of a child's stderr is kept for the error
// that reports its failure.
const checkChildStderr = 64 << 10

// SelfCheckProcess returns the Options.CheckProcess that runs a register
// check in a copy of this executable, or an error when the executable
// cannot be found. argv0 is the program name the copy is given (docket's
// own, so that a multi-call test binary dispatches it the same way).
func SelfCheckProcess(argv0 string) (func(args ...string) *exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this executable to run register checks in a child process: %w", err)
	}
	return func(args ...string) *exec.Cmd {
		cmd := exec.Command(exe, args...)
		cmd.Args[0] = argv0
		return cmd
	}, nil
}

// childStarted, if set, is told the directory and the pid of each check
// child started. It is nil in production; export_test.go sets it, so the
// tests that a cancelled check's child is killed know which process to
// look for, even one killed before it ran a line of its own.
var childStarted func(dir string, pid int)

// childReply is what a check child writes on stdout: the tool's output, or
// the messages of its error.
type childReply struct {
	Out    json.RawMessage `json:"out,omitempty"`
	Errors []string        `json:"errors,omitempty"`
	// NoDecision is the id the register does not hold, when that is the
	// error: the parent rebuilds the typed error from it (D101), never
	// from the text.
	NoDecision string `json:"noDecision,omitempty"`
}

// work is a register tool's work: what runs in the server's one check
// slot, in a child process when Options.CheckProcess is set. name is what
// the child is told to run (RunCheckChild finds it among the registry's
// tools: decision_accept carries decision_status's work). A tool carries
// its work (tool.work), so the child's dispatch is derived from the
// registry; the values are declared together in tools.go.
type work[In, Out any] struct {
	name string
	fn   func(t *tools, ctx context.Context, in In) (Out, error)
}

// childWork is a work whatever its types, as the check child runs it:
// its arguments as JSON in, its output out.
type childWork interface {
	workName() string
	runChild(ctx context.Context, t *tools, arg []byte) (any, error)
}

func (w work[In, Out]) workName() string { return w.name }

func (w work[In, Out]) runChild(ctx context.Context, t *tools, arg []byte) (any, error) {
	var in In
	if err := json.Unmarshal(arg, &in); err != nil {
		return nil, err
	}
	return w.fn(t, ctx, in)
}

// call runs w on in in the server's one check slot, for at most the gate's
// timeout. With Options.CheckProcess set it runs in a child process,
// killed the moment the request is cancelled or its time is up, and the
// slot is free as soon as the child is gone (D71); without, in process
// (bounded), where it stops at the check's next file or claim.
func (w work[In, Out]) call(ctx context.Context, t *tools, in In) (Out, error) {
	return w.callStarted(ctx, t, in, nil)
}

// callStarted is call that calls started, if set, once the check holds
// the slot and runs: what claims_check's progress reports.
func (w work[In, Out]) callStarted(ctx context.Context, t *tools, in In, started func()) (Out, error) {
	if started == nil {
		started = func() {}
	}
	if t.process == nil {
		return bounded(ctx, t.checks, func(ctx context.Context) (Out, error) { started(); return w.fn(t, ctx, in) })
	}
	var out Out
	raw, err := t.checks.inChild(ctx, t.process, t.maxResult, w.name, t.dir, in, started)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("read the check process's result: %w", err)
	}
	return out, nil
}

// inChild runs tool's work on dir in a child process made by process, in
// g's slot, and returns the tool's output as JSON. The child is killed,
// with every process it started, when ctx ends or g's timeout passes; the
// slot is given back once it is gone, which takes milliseconds, not the
// rest of the check.
func (g *checkGate) inChild(ctx context.Context, process func(...string) *exec.Cmd, maxResult int, tool, dir string, in any, started func()) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	select {
	case g.slot <- struct{}{}:
	case <-ctx.Done():
		return nil, g.stopped(ctx)
	}
	defer func() { <-g.slot }()
	arg, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("encode the check's arguments: %w", err)
	}
	cmd := process(CheckChildCommand, tool, dir, g.timeout.String(), string(arg))
	stdout := newCappedBuffer(maxResult)
	stderr := newCappedBuffer(checkChildStderr)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, stdout, stderr
	cmd.SysProcAttr = childProcAttr()
	// A grandchild (git) that keeps the pipes open cannot hold Wait once
	// the child itself is gone.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the check process: %w", err)
	}
	if childStarted != nil {
		childStarted(dir, cmd.Process.Pid)
	}
	started()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var werr, stopped error
	select {
	case werr = <-waited:
	case <-ctx.Done():
		stopped = g.stopped(ctx)
	case <-stdout.overflow():
		stopped = fmt.Errorf("the result is over this server's %d-byte reply limit: check one decision at a time (the decision argument)", maxResult)
	}
	if stopped != nil {
		// Cancelled, out of time or saying too much: the child and what
		// it started die now, and the slot is free once they are gone.
		killChild(cmd.Process)
		<-waited
		return nil, stopped
	}
	if werr != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return nil, fmt.Errorf("the check process failed (%v)", werr)
		}
		return nil, fmt.Errorf("the check process failed (%v): %s", werr, lastLine(msg))
	}
	var reply childReply
	if err := json.Unmarshal(stdout.Bytes(), &reply); err != nil {
		return nil, fmt.Errorf("read the check process's result: %w", err)
	}
	if reply.NoDecision != "" {
		return nil, &noDecisionError{reply.NoDecision}
	}
	if len(reply.Errors) > 0 {
		errs := make([]error, len(reply.Errors))
		for i, m := range reply.Errors {
			errs[i] = errors.New(m)
		}
		if len(errs) == 1 {
			return nil, errs[0]
		}
		return nil, errors.Join(errs...)
	}
	return reply.Out, nil
}

// lastLine is the last line of s: a failing child's stderr ends with what
// went wrong.
func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// RunCheckChild is the child side of a register check: args are the tool,
// the repository directory, the timeout and the tool's arguments as JSON,
// as inChild passes them after CheckChildCommand. It writes a childReply
// on stdout and returns 0, or says on stderr why it could not and returns
// 2.
func RunCheckChild(args []string, stdout, stderr io.Writer) int {
	if len(args) != 4 {
		fmt.Fprintf(stderr, "docket %s: want TOOL DIR TIMEOUT ARGS, got %d arguments (this command is docket mcp's own)\n", CheckChildCommand, len(args))
		return 2
	}
	tool, dir, arg := args[0], args[1], []byte(args[3])
	timeout, err := time.ParseDuration(args[2])
	if err != nil || timeout <= 0 {
		fmt.Fprintf(stderr, "docket %s: timeout %q: want a positive duration such as 2m0s\n", CheckChildCommand, args[2])
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	t := &tools{dir: dir}
	w, names := childWorks(t.all(), tool)
	if w == nil {
		fmt.Fprintf(stderr, "docket %s: unknown tool %q: want %s\n", CheckChildCommand, tool, names)
		return 2
	}
	out, err := w.runChild(ctx, t, arg)
	var reply childReply
	if nd, ok := errors.AsType[*noDecisionError](err); ok {
		reply.NoDecision = nd.id
	} else if err != nil {
		parts := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			parts = j.Unwrap()
		}
		for _, e := range parts {
			reply.Errors = append(reply.Errors, e.Error())
		}
	} else if reply.Out, err = json.Marshal(out); err != nil {
		fmt.Fprintf(stderr, "docket %s: encode the result: %v\n", CheckChildCommand, err)
		return 2
	}
	b, err := json.Marshal(reply)
	if err == nil {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "docket %s: write the result: %v\n", CheckChildCommand, err)
		return 2
	}
	return 0
}

// childWorks finds the work named name among the registry's tools, and
// lists the names there are, for the message when it is not there.
func childWorks(registry []tool, name string) (childWork, string) {
	var names []string
	var found childWork
	for _, tl := range registry {
		if tl.work == nil || slices.Contains(names, tl.work.workName()) {
			continue
		}
		names = append(names, tl.work.workName())
		if tl.work.workName() == name {
			found = tl.work
		}
	}
	slices.Sort(names)
	if len(names) < 2 {
		return found, strings.Join(names, "")
	}
	return found, strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// cappedBuffer keeps at most max bytes written to it; past that it
// discards the rest and closes over, once. exec's copying goroutine
// writes it; it is read after Wait.
type cappedBuffer struct {
	max  int
	mu   sync.Mutex
	buf  bytes.Buffer
	over chan struct{}
}

func newCappedBuffer(max int) *cappedBuffer {
	return &cappedBuffer{max: max, over: make(chan struct{})}
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > b.max {
		return len(p), nil
	}
	if b.buf.Len()+len(p) > b.max {
		b.buf.Write(p[:b.max+1-b.buf.Len()])
		close(b.over)
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

// overflow is closed once more than max bytes were written.
func (b *cappedBuffer) overflow() <-chan struct{} { return b.over }

func (b *cappedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Bytes()
}

func (b *cappedBuffer) String() string { return string(b.Bytes()) }
