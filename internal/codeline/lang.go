package codeline

import (
	"path"
	"strings"
)

//go:generate go run ../listgen/cmd/listgen

// The lexers, one per language family, each with the extensions (matched
// in lower case) and the base names of the files it reads. A lexer is a
// value marked //registry:lexers, here or in a file of its own; listgen
// writes the list For looks in (lexers_gen.go).
//
//registry:lexers
var (
	goLexer       = &Lexer{name: "go", scan: scanGo, codeStrings: true, prefix: true, exts: []string{".go"}}
	rustLexer     = &Lexer{name: "rust", scan: scanRust, prefix: true, exts: []string{".rs"}}
	cLexer        = &Lexer{name: "c", scan: func(s []byte, r *Regions) { scanC(s, r, cDialect) }, exts: []string{".c", ".h"}}
	cppLexer      = &Lexer{name: "cpp", scan: func(s []byte, r *Regions) { scanC(s, r, cppDialect) }, exts: []string{".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"}}
	javaLexer     = &Lexer{name: "java", scan: func(s []byte, r *Regions) { scanC(s, r, javaDialect) }, exts: []string{".java"}}
	jsLexer       = &Lexer{name: "js", scan: func(s []byte, r *Regions) { scanC(s, r, jsDialect) }, exts: []string{".js", ".mjs", ".cjs", ".jsx"}}
	tsLexer       = &Lexer{name: "ts", scan: func(s []byte, r *Regions) { scanC(s, r, jsDialect) }, exts: []string{".ts", ".tsx", ".mts", ".cts"}}
	clikeLexer    = &Lexer{name: "clike", scan: func(s []byte, r *Regions) { scanC(s, r, clikeDialect) }, exts: []string{".scala", ".proto", ".dart", ".zig", ".jsonc", ".scss", ".less"}, names: []string{"Jenkinsfile", "go.mod", "go.work"}}
	kotlinLexer   = &Lexer{name: "kotlin", scan: func(s []byte, r *Regions) { scanC(s, r, kotlinDialect) }, exts: []string{".kt", ".kts"}}
	swiftLexer    = &Lexer{name: "swift", scan: func(s []byte, r *Regions) { scanC(s, r, swiftDialect) }, exts: []string{".swift"}}
	csharpLexer   = &Lexer{name: "csharp", scan: func(s []byte, r *Regions) { scanC(s, r, csDialect) }, exts: []string{".cs"}}
	rubyLexer     = &Lexer{name: "ruby", scan: scanRuby, exts: []string{".rb"}, names: []string{"Gemfile", "Rakefile"}}
	pythonLexer   = &Lexer{name: "python", scan: scanPython, exts: []string{".py", ".pyi"}}
	shellLexer    = &Lexer{name: "shell", scan: func(s []byte, r *Regions) { scanShell(s, 0, len(s), r, false) }, exts: []string{".sh", ".bash", ".zsh", ".ksh"}}
	yamlLexer     = &Lexer{name: "yaml", scan: scanYAML, exts: []string{".yml", ".yaml"}}
	tomlLexer     = &Lexer{name: "toml", scan: scanTOML, exts: []string{".toml"}, names: []string{"Cargo.lock"}}
	sqlLexer      = &Lexer{name: "sql", scan: scanSQL, exts: []string{".sql"}}
	markdownLexer = &Lexer{name: "markdown", scan: scanMarkdown, exts: []string{".md", ".markdown"}}
	htmlLexer     = &Lexer{name: "html", scan: scanHTML, exts: []string{".html", ".htm", ".xml", ".svg"}}
	cssLexer      = &Lexer{name: "css", scan: func(s []byte, r *Regions) { scanGeneric(s, r, cssSyntax) }, exts: []string{".css"}}
	phpLexer      = &Lexer{name: "php", scan: func(s []byte, r *Regions) { scanGeneric(s, r, phpSyntax) }, exts: []string{".php"}}
	hashLexer     = &Lexer{name: "hash", scan: func(s []byte, r *Regions) { scanGeneric(s, r, hashSyntax) }, exts: []string{".pl", ".mk", ".r", ".tf", ".cfg", ".conf", ".ini", ".nix", ".ps1", ".awk", ".cmake"}, names: []string{"Makefile", "GNUmakefile", "Dockerfile", "Containerfile", ".gitignore", ".gitattributes"}}
	dashLexer     = &Lexer{name: "dash", scan: func(s []byte, r *Regions) { scanGeneric(s, r, dashSyntax) }, exts: []string{".lua", ".hs"}}
)

// noneLexer reads every line of a file as code: the lexer of a language
// claimslint does not know.
var noneLexer = &Lexer{name: "none"}

// byExt and byName index lexers by the extensions and base names each
// declares; TestEachFileNameHasOneLexer refuses one claimed twice.
var byExt, byName = index(lexers, func(l *Lexer) []string { return l.exts }), index(lexers, func(l *Lexer) []string { return l.names })

func index(lxs []*Lexer, keys func(*Lexer) []string) map[string]*Lexer {
	m := map[string]*Lexer{}
	for _, l := range lxs {
		for _, k := range keys(l) {
			m[k] = l
		}
	}
	return m
}

// For returns the lexer that reads a file called name: by base name, then
// by extension (case-insensitive), then, for a file without an extension,
// by its shebang line (`#!/bin/sh`, `#!/usr/bin/env python3`). It never
// returns nil: an unknown language gets the lexer "none", whose files are
// all code.
func For(name string, src []byte) *Lexer {
	base := path.Base(name)
	if lx, ok := byName[base]; ok {
		return lx
	}
	ext := path.Ext(base)
	if lx, ok := byExt[strings.ToLower(ext)]; ok {
		return lx
	}
	if ext == "" && len(src) > 2 && src[0] == '#' && src[1] == '!' {
		// The interpreter: the first word after "#!", or after env and
		// its options.
		fields := strings.Fields(string(src[2:lineEnd(src[:min(len(src), 200)], 0)]))
		interp := ""
		for k, f := range fields {
			if k == 0 && path.Base(f) != "env" || k > 0 && !strings.HasPrefix(f, "-") {
				interp = path.Base(f)
				break
			}
		}
		switch {
		case strings.HasPrefix(interp, "python"):
			return pythonLexer
		case strings.HasSuffix(interp, "sh"):
			return shellLexer
		}
		return hashLexer
	}
	return noneLexer
}
