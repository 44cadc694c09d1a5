package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// checkOutputs makes every tool validate its structured output against its
// output schema on every call, as go-sdk's typed AddTool does. Production
// leaves it off (D82): the output is json.Marshal of the tool's own Go type,
// whose schema was inferred from that same type, and its validation cost
// more than the rest of an issue_show; the tests of this package turn it on,
// so every reply a test provokes is still validated.
var checkOutputs = false

// addTool registers h under def as go-sdk's typed AddTool does (the same
// schemas, the same input validation and error texts, the same result),
// except that the output is validated only when checkOutputs is set (D82).
// It returns the handler it registered, for fastCalls.
func addTool[In, Out any](s *sdk.Server, def *sdk.Tool, h sdk.ToolHandlerFor[In, Out]) sdk.ToolHandler {
	tt := *def
	in, err := resolveSchema[In](&tt.InputSchema)
	if err != nil {
		panic(fmt.Sprintf("AddTool: tool %q: input schema: %v", def.Name, err))
	}
	out, err := resolveSchema[Out](&tt.OutputSchema)
	if err != nil {
		panic(fmt.Sprintf("AddTool: tool %q: output schema: %v", def.Name, err))
	}
	defaults := hasDefaults(tt.InputSchema)
	var valid validArgs
	schema, _ := tt.InputSchema.(*jsonschema.Schema)
	// tools/list shows the portable spelling of both schemas; calls are
	// validated against the resolved ones, which mean the same.
	if schema != nil {
		tt.InputSchema = portable(schema)
	}
	if o, ok := tt.OutputSchema.(*jsonschema.Schema); ok && o != nil {
		tt.OutputSchema = portable(o)
	}
	handler := func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		// The schema's validator and the decode into In decide, once per
		// call; only a refusal is read again, by checkArgs, to say which
		// argument is wrong in the user's words (D81).
		var a In
		args, err := valid.validate(req.Params.Arguments, in, defaults)
		if err != nil {
			err = fmt.Errorf("validating \"arguments\": %v", err)
		} else {
			err = json.Unmarshal(args, &a)
		}
		if err != nil {
			if named := checkArgs(def.Name, schema, req.Params.Arguments); named != nil {
				return toolError(named), nil
			}
			return toolError(err), nil
		}
		res, o, err := h(ctx, req, a)
		if err != nil {
			if we, ok := err.(*jsonrpc.Error); ok {
				return nil, we
			}
			return toolError(err), nil
		}
		if res == nil {
			res = &sdk.CallToolResult{}
		}
		if res.InputRequests != nil {
			return res, nil
		}
		// go-sdk sends the output re-encoded from its decoded value, every
		// object's keys in order; encodeOutput gives those bytes without
		// the round trip (sortKeys, or an output's own sorted encoder).
		structured, err := encodeOutput(o)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		if checkOutputs {
			var v any
			if err := json.Unmarshal(structured, &v); err != nil {
				return nil, fmt.Errorf("validating tool output: %w", err)
			}
			if err := out.Validate(&v); err != nil {
				return nil, fmt.Errorf("validating tool output: %w", err)
			}
		}
		res.StructuredContent = json.RawMessage(structured)
		if res.Content == nil {
			res.Content = []sdk.Content{&sdk.TextContent{Text: string(structured)}}
		}
		return res, nil
	}
	s.AddTool(&tt, handler)
	return handler
}

// resolveSchema resolves the schema in *field, inferring it from T first
// when it is nil, as go-sdk's AddTool does.
func resolveSchema[T any](field *any) (*jsonschema.Resolved, error) {
	if *field == nil {
		s, err := jsonschema.ForType(reflect.TypeFor[T](), &jsonschema.ForOptions{})
		if err != nil {
			return nil, err
		}
		*field = s
	}
	s, ok := (*field).(*jsonschema.Schema)
	if !ok {
		// A schema given as JSON or a map: read it as go-sdk does.
		b, err := json.Marshal(*field)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, err
		}
	}
	return s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
}

// hasDefaults reports whether a schema may give any property a default:
// whether its JSON holds a "default" key anywhere (a property of that name
// too, which only costs the slower path).
func hasDefaults(schema any) bool {
	b, err := json.Marshal(schema)
	return err != nil || bytes.Contains(b, []byte(`"default"`))
}

// validateArgs validates a call's arguments against the input schema and
// applies its defaults, as go-sdk does before a typed handler: absent
// arguments are the empty object. With no default in the schema the
// arguments are returned as they came, not encoded again.
func validateArgs(data json.RawMessage, in *jsonschema.Resolved, defaults bool) (json.RawMessage, error) {
	v := map[string]any{}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	var u any = v
	if !defaults {
		if err := in.Validate(&u); err != nil {
			return nil, err
		}
		if len(data) == 0 {
			return json.RawMessage("{}"), nil
		}
		return data, nil
	}
	if v == nil {
		// null: absent, as go-sdk has it before a default (where its own
		// path panics on the nil map).
		u = map[string]any{}
	}
	if err := in.ApplyDefaults(&u); err != nil {
		return nil, fmt.Errorf("applying schema defaults:\n%w", err)
	}
	if err := in.Validate(&u); err != nil {
		return nil, err
	}
	return json.Marshal(u)
}

// validArgs remembers arguments a tool's input schema accepted, by their
// bytes, so that the same call again (issue_show of one id, the hot path
// of D82) is not validated again: with no default in the schema
// validateArgs is a function of the bytes alone and returns them as they
// came. At most maxValidArgs of at most maxValidArgLen bytes each are kept
// per tool, and the lot is dropped when full; refused arguments are not
// kept, so a refusal is always worded afresh.
type validArgs struct {
	mu   sync.RWMutex
	seen map[string]struct{}
}

const (
	maxValidArgs   = 1024
	maxValidArgLen = 256
)

// validate is validateArgs(data, in, defaults), from memory when the
// same bytes were accepted before.
func (v *validArgs) validate(data json.RawMessage, in *jsonschema.Resolved, defaults bool) (json.RawMessage, error) {
	if defaults || len(data) == 0 || len(data) > maxValidArgLen {
		return validateArgs(data, in, defaults)
	}
	v.mu.RLock()
	_, ok := v.seen[string(data)]
	v.mu.RUnlock()
	if ok {
		return data, nil
	}
	args, err := validateArgs(data, in, defaults)
	if err != nil {
		return args, err
	}
	v.mu.Lock()
	if v.seen == nil || len(v.seen) >= maxValidArgs {
		v.seen = make(map[string]struct{}, maxValidArgs)
	}
	v.seen[string(data)] = struct{}{}
	v.mu.Unlock()
	return args, nil
}

// toolError is a tool result with isError set and err's text as content.
func toolError(err error) *sdk.CallToolResult {
	var r sdk.CallToolResult
	r.SetError(err)
	return &r
}
