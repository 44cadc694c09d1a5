// Package listgen writes the ordered lists of the registries (D103): the
// rules (check.Rules, and their ids in internal/ruleid), the claim kinds
// (check.Kinds), the output formats (format.Printers), the tracker formats
// (trackerformat.Formats) and the language lexers (codeline's lexers). A
// value joins a list by a directive in its declaration's doc comment,
//
//	//registry:kinds 3
//
// the list's name and, for a list whose order is a fact (the order help and
// messages name the values in, the order detection asks them in), the
// value's place. The values of a list without places (the rules, ordered
// by the id their file name carries; the lexers, whose order nothing reads)
// are taken in file order. The generated file holds the explicit list, so
// no init() and no reflection builds a registry, and adding a value is its
// one hand-written file and `go generate` (listgen.Render reads a package's
// files; Stale tells a test the list is out of date).
package listgen

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// list is one generated list: the package it is in, its name, the type of
// its elements, the file written and the doc comment of the variable.
type list struct {
	dir, name, elem, out, doc string
	// ordered: each value states its place in its directive.
	ordered bool
	// oneLine: the list is written on one line (a claim reads it so).
	oneLine bool
	// byRuleFile: each value is in rule_clNNN_name.go, ordered by NNN, and
	// the ids are written to internal/ruleid as well.
	byRuleFile bool
}

var lists = []list{
	{dir: "internal/check", name: "Rules", elem: "*Rule", out: "rules_gen.go", oneLine: true, byRuleFile: true, doc: `// Rules lists every rule ` + "`claimslint check`" + ` runs, in id order: the
// values marked //registry:rules, each in its file rule_clNNN_name.go,
// ordered by NNN. Prove's rule (CL009) acts only with Options.Prove, the
// --base rules (CL011, CL012, CL014, CL015, CL016) only with Options.Base.`},
	{dir: "internal/check", name: "Kinds", elem: "Kind", out: "kinds_gen.go", ordered: true, doc: `// Kinds is every claim kind, in the order messages and documentation name
// them (D103): the types marked //registry:kinds N, by N. It is read by the
// engine, prove, --base, audit, list, CL006's and CL007's documentation
// and CL009's. Adding a kind is its file (go run ./internal/check/addkind.go
// writes it, and this list).`},
	{dir: "internal/format", name: "Printers", elem: "*Printer", out: "printers_gen.go", ordered: true, doc: `// Printers lists every output format, in the order help and messages name
// them (the values marked //registry:printers N, by N); the first is the
// default.`},
	{dir: "internal/trackerformat", name: "Formats", elem: "*Format", out: "formats_gen.go", ordered: true, oneLine: true, doc: `// Formats lists the formats in the order Detect asks them and help names
// them: the values marked //registry:formats N, by N.`},
	{dir: "internal/codeline", name: "lexers", elem: "*Lexer", out: "lexers_gen.go", doc: `// lexers is every language's lexer (the values marked //registry:lexers);
// For finds one by the base names and extensions each declares.`},
}

// Dirs lists the packages that hold generated lists, as slash paths from
// the module root.
func Dirs() []string {
	var out []string
	for _, l := range lists {
		if !slices.Contains(out, l.dir) {
			out = append(out, l.dir)
		}
	}
	return out
}

// key is the list's name in directives: its name in lower case, as a Go
// directive is written (//registry:kinds).
func (l list) key() string { return strings.ToLower(l.name) }

// ruleIDFile is where the rule ids are written.
const ruleIDFile = "internal/ruleid/ruleid_gen.go"

var (
	directiveRE = regexp.MustCompile(`^//registry:([a-z0-9]+)(?:\s+(\d+))?\s*$`)
	ruleFileRE  = regexp.MustCompile(`^rule_cl(\d{3})_[a-z0-9_]+\.go$`)
	idConstRE   = regexp.MustCompile(`(?m)^\s*(?:const\s+)?(\w+)\s*=\s*"(CL\d{3})"`)
)

// item is one value of a list.
type item struct {
	ident  string
	isType bool
	place  int
	file   string
	pos    token.Position
	// ruleConst is the constant of internal/ruleid a rule's ID names.
	ruleConst string
}

// Render returns the generated files of the package dir (a slash path from
// root), keyed by their slash paths from root. extra holds files read as if
// they were in dir, keyed by base name (a test adds a value this way
// without writing the tree).
func Render(root, dir string, extra map[string][]byte) (map[string][]byte, error) {
	srcs, err := sources(root, dir, extra)
	if err != nil {
		return nil, err
	}
	pkg, items, err := collect(srcs)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	found := false
	for _, l := range lists {
		if l.dir != dir {
			continue
		}
		found = true
		got, err := order(l, items[l.key()])
		if err != nil {
			return nil, err
		}
		src, err := render(l, pkg, got)
		if err != nil {
			return nil, err
		}
		out[path.Join(dir, l.out)] = src
		if l.byRuleFile {
			src, err := renderRuleIDs(root, got)
			if err != nil {
				return nil, err
			}
			out[ruleIDFile] = src
		}
	}
	if !found {
		return nil, fmt.Errorf("%s holds no generated list (listgen knows %s)", dir, strings.Join(Dirs(), ", "))
	}
	for name := range items {
		if !slices.ContainsFunc(lists, func(l list) bool { return l.dir == dir && l.key() == name }) {
			return nil, fmt.Errorf("%s: //registry:%s names no list of this package", items[name][0].pos, name)
		}
	}
	return out, nil
}

// Stale regenerates the lists of dir in memory and returns an error naming
// each generated file that differs from the one on disk, and the command
// that writes it again.
func Stale(root, dir string) error {
	want, err := Render(root, dir, nil)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range sortedKeys(want) {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || !bytes.Equal(got, want[p]) {
			errs = append(errs, fmt.Errorf("%s is out of date with the //registry values of %s: run go generate ./%s", p, dir, dir))
		}
	}
	return errors.Join(errs...)
}

// Write writes the generated files of dir.
func Write(root, dir string) ([]string, error) {
	files, err := Render(root, dir, nil)
	if err != nil {
		return nil, err
	}
	keys := sortedKeys(files)
	for _, p := range keys {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), files[p], 0o644); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

type source struct {
	name string
	data []byte
}

// sources reads the package's hand-written Go files: not tests, not
// generated, not programs built only by hand (//go:build ignore).
func sources(root, dir string, extra map[string][]byte) ([]source, error) {
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return nil, err
	}
	var out []source
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if _, ok := extra[n]; ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), n))
		if err != nil {
			return nil, err
		}
		out = append(out, source{path.Join(dir, n), data})
	}
	for n, data := range extra {
		out = append(out, source{path.Join(dir, n), data})
	}
	slices.SortFunc(out, func(a, b source) int { return strings.Compare(a.name, b.name) })
	kept := out[:0]
	for _, s := range out {
		if !generated(s.data) && !ignored(s.data) {
			kept = append(kept, s)
		}
	}
	return kept, nil
}

var generatedRE = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

func generated(src []byte) bool {
	head, _, _ := bytes.Cut(src, []byte("\npackage "))
	return generatedRE.Match(head)
}

func ignored(src []byte) bool {
	head, _, _ := bytes.Cut(src, []byte("\npackage "))
	return bytes.Contains(head, []byte("//go:build ignore\n"))
}

// collect parses srcs and returns the package name and the values of each
// list their directives name.
func collect(srcs []source) (string, map[string][]item, error) {
	fset := token.NewFileSet()
	pkg := ""
	items := map[string][]item{}
	for _, s := range srcs {
		f, err := parser.ParseFile(fset, s.name, s.data, parser.ParseComments)
		if err != nil {
			return "", nil, err
		}
		if pkg != "" && f.Name.Name != pkg {
			return "", nil, fmt.Errorf("%s: package %s, not %s", s.name, f.Name.Name, pkg)
		}
		pkg = f.Name.Name
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			if err := collectDecl(fset, s.name, gd, items); err != nil {
				return "", nil, err
			}
		}
	}
	return pkg, items, nil
}

// collectDecl adds the values of gd its directives name: a directive on a
// declaration of one value, on a value of a group, or on a group (every
// value of the group).
func collectDecl(fset *token.FileSet, file string, gd *ast.GenDecl, items map[string][]item) error {
	declName, declPlace, declHas, err := directive(fset, gd.Doc)
	if err != nil {
		return err
	}
	for _, spec := range gd.Specs {
		var doc *ast.CommentGroup
		var idents []*ast.Ident
		var values []ast.Expr
		isType := false
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			doc, idents, isType = sp.Doc, []*ast.Ident{sp.Name}, true
		case *ast.ValueSpec:
			doc, idents, values = sp.Doc, sp.Names, sp.Values
		default:
			continue
		}
		name, place, has, err := directive(fset, doc)
		if err != nil {
			return err
		}
		if !has {
			name, place, has = declName, declPlace, declHas
		}
		if !has {
			continue
		}
		if len(idents) != 1 {
			return fmt.Errorf("%s: //registry:%s on a declaration of %d names: declare one value", fset.Position(spec.Pos()), name, len(idents))
		}
		it := item{ident: idents[0].Name, isType: isType, place: place, file: path.Base(file), pos: fset.Position(idents[0].Pos())}
		if len(values) == 1 {
			it.ruleConst = ruleConst(values[0])
		}
		items[name] = append(items[name], it)
	}
	return nil
}

// directive reads the //registry directive of a doc comment: the list's
// name and the place (-1 when none is given).
func directive(fset *token.FileSet, doc *ast.CommentGroup) (name string, place int, ok bool, err error) {
	if doc == nil {
		return "", 0, false, nil
	}
	for _, c := range doc.List {
		if !strings.HasPrefix(c.Text, "//registry:") {
			continue
		}
		if ok {
			return "", 0, false, fmt.Errorf("%s: a second //registry directive on one declaration", fset.Position(c.Pos()))
		}
		m := directiveRE.FindStringSubmatch(c.Text)
		if m == nil {
			return "", 0, false, fmt.Errorf("%s: %q: write //registry:LIST or //registry:LIST N (N its place, from 1)", fset.Position(c.Pos()), c.Text)
		}
		name, place, ok = m[1], -1, true
		if m[2] != "" {
			place, _ = strconv.Atoi(m[2])
		}
	}
	return name, place, ok, nil
}

// ruleConst is X of a value &Rule{ID: ruleid.X, ...}, or "".
func ruleConst(e ast.Expr) string {
	u, ok := e.(*ast.UnaryExpr)
	if !ok {
		return ""
	}
	lit, ok := u.X.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "ID" {
			continue
		}
		if sel, ok := kv.Value.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "ruleid" {
				return sel.Sel.Name
			}
		}
	}
	return ""
}

// order sorts a list's values: by place for an ordered list (each place
// given once, from 1 without gaps), by rule id for the rules, by file and
// line otherwise.
func order(l list, items []item) ([]item, error) {
	items = slices.Clone(items)
	switch {
	case l.ordered:
		for _, it := range items {
			if it.place < 1 {
				return nil, fmt.Errorf("%s: %s is in %s, whose order is a fact: write //registry:%s N, N its place (the last is %d)", it.pos, it.ident, l.name, l.key(), len(items))
			}
		}
		slices.SortStableFunc(items, func(a, b item) int { return a.place - b.place })
		for i, it := range items {
			if it.place != i+1 {
				return nil, fmt.Errorf("%s: %s's place in %s is %d, but the places run 1..%d each once: give each value its own place", it.pos, it.ident, l.name, it.place, len(items))
			}
		}
	case l.byRuleFile:
		seen := map[string]string{}
		for _, it := range items {
			m := ruleFileRE.FindStringSubmatch(it.file)
			if m == nil {
				return nil, fmt.Errorf("%s: the rule %s is in %s: a rule's file is rule_clNNN_name.go, NNN its id's number", it.pos, it.ident, it.file)
			}
			if it.place >= 0 {
				return nil, fmt.Errorf("%s: the rules are ordered by the id their file names: write //registry:%s without a place", it.pos, l.key())
			}
			if it.ruleConst == "" {
				return nil, fmt.Errorf("%s: the rule %s sets no ID field: set it to the constant the ruleid package declares for its file (listgen writes it)", it.pos, it.ident)
			}
			if other, ok := seen[m[1]]; ok {
				return nil, fmt.Errorf("%s: %s and %s both have the id CL%s", it.pos, other, it.file, m[1])
			}
			seen[m[1]] = it.file
		}
		slices.SortStableFunc(items, func(a, b item) int { return strings.Compare(a.file, b.file) })
	default:
		for _, it := range items {
			if it.place >= 0 {
				return nil, fmt.Errorf("%s: the order of %s is not a fact: write //registry:%s without a place", it.pos, l.name, l.key())
			}
		}
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%s: no value is marked //registry:%s", l.dir, l.key())
	}
	return items, nil
}

func header(dir, name string) string {
	return fmt.Sprintf("// Code generated by listgen from the //registry:%s values of %s. DO NOT EDIT.\n// go generate ./%s writes it again.\n\n", name, dir, dir)
}

func render(l list, pkg string, items []item) ([]byte, error) {
	var b strings.Builder
	b.WriteString(header(l.dir, l.key()))
	fmt.Fprintf(&b, "package %s\n\n%s\nvar %s = []%s{", pkg, l.doc, l.name, l.elem)
	for i, it := range items {
		v := it.ident
		if it.isType {
			v += "{}"
		}
		if l.oneLine {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(v)
		} else {
			fmt.Fprintf(&b, "\n\t%s,", v)
		}
	}
	if !l.oneLine {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return format.Source([]byte(b.String()))
}

// renderRuleIDs writes internal/ruleid's generated constants: each rule's
// ID constant, its value the id its file name carries. An id or a name
// internal/ruleid already declares by hand (CL013, audit's rule) is an
// error.
func renderRuleIDs(root string, rules []item) ([]byte, error) {
	hand := map[string]string{}
	dir := filepath.Join(root, filepath.FromSlash(path.Dir(ruleIDFile)))
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") || path.Join(path.Dir(ruleIDFile), e.Name()) == ruleIDFile {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		for _, m := range idConstRE.FindAllStringSubmatch(string(data), -1) {
			hand[m[1]], hand[m[2]] = m[2], m[1]
		}
	}
	var b strings.Builder
	b.WriteString(header("internal/check", "rules"))
	b.WriteString("package ruleid\n\n// The ids of the rules of check.Rules, each the number its file's name\n// carries (internal/check/rule_clNNN_name.go).\nconst (\n")
	for _, it := range rules {
		id := "CL" + ruleFileRE.FindStringSubmatch(it.file)[1]
		if other, ok := hand[id]; ok {
			return nil, fmt.Errorf("%s: %s is internal/ruleid's %s already: give the rule another number", it.pos, id, other)
		}
		if _, ok := hand[it.ruleConst]; ok {
			return nil, fmt.Errorf("%s: ruleid.%s is declared in internal/ruleid by hand already", it.pos, it.ruleConst)
		}
		fmt.Fprintf(&b, "\t%s = %q // internal/check/%s\n", it.ruleConst, id, it.file)
	}
	b.WriteString(")\n")
	return format.Source([]byte(b.String()))
}
