package mcp

import "github.com/google/jsonschema-go/jsonschema"

// portable returns a copy of s that strict MCP clients accept (issue 36,
// D81): every `type` written as an array (jsonschema-go writes
// ["null","array"] for a Go slice, ["null","string"] for a pointer) is
// split into anyOf branches of one type each, the equivalent spelling
// MCP Inspector's schema lint asks for (its type-union rule). Only the
// schema tools/list shows is rewritten; arguments are still validated
// against the schema they were resolved from, so what is accepted does
// not change.
func portable(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	c := s.CloneSchemas()
	splitUnions(c)
	return c
}

// splitUnions rewrites s and every schema below it in place.
func splitUnions(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for _, p := range s.Properties {
		splitUnions(p)
	}
	for _, p := range s.PatternProperties {
		splitUnions(p)
	}
	for _, d := range s.Defs {
		splitUnions(d)
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, x := range list {
			splitUnions(x)
		}
	}
	for _, x := range []*jsonschema.Schema{s.Items, s.AdditionalProperties, s.Not, s.Contains, s.PropertyNames} {
		splitUnions(x)
	}
	if len(s.Types) < 2 {
		return
	}
	var branches, null []*jsonschema.Schema
	for _, t := range s.Types {
		if t == "null" {
			null = append(null, &jsonschema.Schema{Type: "null"})
			continue
		}
		b := s.CloneSchemas()
		b.Types, b.Type = nil, t
		b.Title, b.Description, b.Default = "", "", nil
		branches = append(branches, b)
	}
	*s = jsonschema.Schema{Title: s.Title, Description: s.Description, Default: s.Default, AnyOf: append(branches, null...)}
}
