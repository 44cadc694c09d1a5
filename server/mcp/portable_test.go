package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// schemaLint reports what MCP Inspector's schema lint (2.12) reports on a
// tool schema: a type written as an array (type-union), a bare true or
// false where a schema object is expected (boolean-schema; allowed under
// additionalProperties and its kin), a $ref outside the document
// (remote-ref), and a schema with no validation keyword (untyped-schema).
func schemaLint(v any, path, parent string, out *[]string) {
	switch s := v.(type) {
	case bool:
		switch parent {
		case "additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems":
		default:
			*out = append(*out, fmt.Sprintf("%s: boolean-schema: bare %v", path, s))
		}
	case map[string]any:
		if _, ok := s["type"].([]any); ok {
			*out = append(*out, fmt.Sprintf("%s: type-union: %v", path, s["type"]))
		}
		if ref, ok := s["$ref"].(string); ok && ref != "" && !strings.HasPrefix(ref, "#") {
			*out = append(*out, fmt.Sprintf("%s: remote-ref: %s", path, ref))
		}
		typed := false
		for k := range s {
			if validation[k] {
				typed = true
			}
		}
		if !typed && parent != "not" {
			*out = append(*out, fmt.Sprintf("%s: untyped-schema", path))
		}
		for _, k := range []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"} {
			if m, ok := s[k].(map[string]any); ok {
				names := make([]string, 0, len(m))
				for n := range m {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					schemaLint(m[n], path+"/"+k+"/"+n, k, out)
				}
			}
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
			if l, ok := s[k].([]any); ok {
				for i, x := range l {
					schemaLint(x, fmt.Sprintf("%s/%s/%d", path, k, i), k, out)
				}
			}
		}
		for _, k := range []string{"items", "additionalProperties", "unevaluatedProperties", "not", "contains", "propertyNames", "additionalItems", "unevaluatedItems", "if", "then", "else"} {
			if x, ok := s[k]; ok {
				schemaLint(x, path+"/"+k, k, out)
			}
		}
	}
}

var validation = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Split("type.enum.const.multipleOf.maximum.exclusiveMaximum.minimum.exclusiveMinimum.maxLength.minLength.pattern.format.contentMediaType.contentEncoding.contentSchema.maxItems.minItems.uniqueItems.maxContains.minContains.maxProperties.minProperties.required.dependentRequired.allOf.anyOf.oneOf.not.items.prefixItems.contains.additionalItems.unevaluatedItems.properties.patternProperties.additionalProperties.unevaluatedProperties.propertyNames.dependentSchemas.dependencies.$ref.$dynamicRef.$recursiveRef", ".") {
		m[k] = true
	}
	return m
}()

// TestToolSchemasPortable: every schema tools/list shows passes the four
// rules of MCP Inspector's schema lint, so clients that read type as one
// string (issue 36: Inspector flagged 87 type unions) accept every tool.
func TestToolSchemasPortable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tools, err := goSDKSession(ctx, t, "lint").ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	schemas := 0
	for _, tool := range tools.Tools {
		for key, s := range map[string]any{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
			if s == nil {
				continue
			}
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			schemas++
			schemaLint(v, tool.Name+"."+key, "", &found)
		}
	}
	if schemas < 2*len(tools.Tools)-2 {
		t.Fatalf("read %d schemas of %d tools: the test reads the wrong thing", schemas, len(tools.Tools))
	}
	for _, f := range found {
		t.Error(f)
	}
}

// TestSchemaLintFindsUnions: the lint is not vacuous: it finds what go-sdk
// writes for a Go slice and a pointer.
func TestSchemaLintFindsUnions(t *testing.T) {
	t.Parallel()
	var v any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":["null","array"],"items":{"type":"string"}},"b":true,"c":{"description":"x"}},"additionalProperties":false}`), &v)
	var found []string
	schemaLint(v, "t", "", &found)
	if len(found) != 3 {
		t.Errorf("found %v, want a type-union, a boolean-schema and an untyped-schema", found)
	}
}
