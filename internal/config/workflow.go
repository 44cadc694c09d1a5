package config

import (
	"fmt"

	"gopkg.in/yaml.v2"
)

// WorkflowSteps counts the steps of each job of a GitHub workflow file, as
// YAML reads it: what init --adopt checks after it adds steps to a job by
// editing the file's text (D86). An error means the file is not a
// workflow YAML can read.
func WorkflowSteps(data []byte) (map[string]int, error) {
	var wf struct {
		Jobs map[string]struct {
			Steps []any `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		return nil, fmt.Errorf("not a workflow YAML reads: %w", yamlError(err))
	}
	out := map[string]int{}
	for id, j := range wf.Jobs {
		out[id] = len(j.Steps)
	}
	return out, nil
}
