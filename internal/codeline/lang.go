package codeline

import (
	"path"
	"strings"
)

// The lexers, one per language family.
var (
	goLexer       = &Lexer{name: "go", scan: scanGo, codeStrings: true, prefix: true}
	rustLexer     = &Lexer{name: "rust", scan: scanRust, prefix: true}
	cLexer        = &Lexer{name: "c", scan: func(s []byte, r *Regions) { scanC(s, r, cDialect) }}
	cppLexer      = &Lexer{name: "cpp", scan: func(s []byte, r *Regions) { scanC(s, r, cppDialect) }}
	javaLexer     = &Lexer{name: "java", scan: func(s []byte, r *Regions) { scanC(s, r, javaDialect) }}
	jsLexer       = &Lexer{name: "js", scan: func(s []byte, r *Regions) { scanC(s, r, jsDialect) }}
	tsLexer       = &Lexer{name: "ts", scan: func(s []byte, r *Regions) { scanC(s, r, jsDialect) }}
	clikeLexer    = &Lexer{name: "clike", scan: func(s []byte, r *Regions) { scanC(s, r, clikeDialect) }}
	kotlinLexer   = &Lexer{name: "kotlin", scan: func(s []byte, r *Regions) { scanC(s, r, kotlinDialect) }}
	swiftLexer    = &Lexer{name: "swift", scan: func(s []byte, r *Regions) { scanC(s, r, swiftDialect) }}
	csharpLexer   = &Lexer{name: "csharp", scan: func(s []byte, r *Regions) { scanC(s, r, csDialect) }}
	rubyLexer     = &Lexer{name: "ruby", scan: scanRuby}
	pythonLexer   = &Lexer{name: "python", scan: scanPython}
	shellLexer    = &Lexer{name: "shell", scan: func(s []byte, r *Regions) { scanShell(s, 0, len(s), r, false) }}
	yamlLexer     = &Lexer{name: "yaml", scan: scanYAML}
	tomlLexer     = &Lexer{name: "toml", scan: scanTOML}
	sqlLexer      = &Lexer{name: "sql", scan: scanSQL}
	markdownLexer = &Lexer{name: "markdown", scan: scanMarkdown}
	htmlLexer     = &Lexer{name: "html", scan: scanHTML}
	cssLexer      = &Lexer{name: "css", scan: func(s []byte, r *Regions) { scanGeneric(s, r, cssSyntax) }}
	phpLexer      = &Lexer{name: "php", scan: func(s []byte, r *Regions) { scanGeneric(s, r, phpSyntax) }}
	hashLexer     = &Lexer{name: "hash", scan: func(s []byte, r *Regions) { scanGeneric(s, r, hashSyntax) }}
	dashLexer     = &Lexer{name: "dash", scan: func(s []byte, r *Regions) { scanGeneric(s, r, dashSyntax) }}
	noneLexer     = &Lexer{name: "none"}
)

var byExt = map[string]*Lexer{
	".go": goLexer,
	".rs": rustLexer,
	".c":  cLexer, ".h": cLexer,
	".cc": cppLexer, ".cpp": cppLexer, ".cxx": cppLexer, ".hpp": cppLexer, ".hh": cppLexer, ".hxx": cppLexer,
	".java": javaLexer,
	".js":   jsLexer, ".mjs": jsLexer, ".cjs": jsLexer, ".jsx": jsLexer,
	".ts": tsLexer, ".tsx": tsLexer, ".mts": tsLexer, ".cts": tsLexer,
	".swift": swiftLexer, ".kt": kotlinLexer, ".kts": kotlinLexer, ".cs": csharpLexer, ".scala": clikeLexer,
	".proto": clikeLexer, ".dart": clikeLexer, ".zig": clikeLexer, ".jsonc": clikeLexer,
	".scss": clikeLexer, ".less": clikeLexer,
	".py": pythonLexer, ".pyi": pythonLexer,
	".sh": shellLexer, ".bash": shellLexer, ".zsh": shellLexer, ".ksh": shellLexer,
	".yml": yamlLexer, ".yaml": yamlLexer,
	".toml": tomlLexer,
	".sql":  sqlLexer,
	".md":   markdownLexer, ".markdown": markdownLexer,
	".html": htmlLexer, ".htm": htmlLexer, ".xml": htmlLexer, ".svg": htmlLexer,
	".css": cssLexer,
	".php": phpLexer,
	".rb":  rubyLexer, ".pl": hashLexer, ".mk": hashLexer, ".r": hashLexer, ".tf": hashLexer, ".cfg": hashLexer,
	".conf": hashLexer, ".ini": hashLexer, ".nix": hashLexer, ".ps1": hashLexer, ".awk": hashLexer, ".cmake": hashLexer,
	".lua": dashLexer, ".hs": dashLexer,
}

var byName = map[string]*Lexer{
	"Makefile": hashLexer, "GNUmakefile": hashLexer, "Dockerfile": hashLexer, "Containerfile": hashLexer,
	"Gemfile": rubyLexer, "Rakefile": rubyLexer, "Jenkinsfile": clikeLexer, ".gitignore": hashLexer, ".gitattributes": hashLexer,
	"go.mod": clikeLexer, "go.work": clikeLexer, "Cargo.lock": tomlLexer,
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
