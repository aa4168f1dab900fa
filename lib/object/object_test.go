package object

import (
	"encoding/json"
	"fmt"
	"testing"
)

func ExampleObject() {
	var o Object
	o.Set("hookSpecificOutput.hookEventName", "PreToolUse")
	o.Set("hookSpecificOutput.permissionDecision", "deny")
	o.Set("continue", false)
	o.Set("hookSpecificOutput.permissionDecision", "ask") // replaces, keeps its place
	fmt.Println(string(o.AppendJSON(nil)))
	// Output: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"},"continue":false}
}

func TestValuesRoundTripThroughEncodingJSON(t *testing.T) {
	var o Object
	o.Set("s", "quote \" backslash \\ newline \n tab \t nul \x00 bad \xff <&> \u2028")
	o.Set("b", true)
	o.Set("n", -42)
	o.Set("list", []string{"a", "b"})
	o.Set("raw", Raw(`{"x":[1,null]}`))
	b := o.AppendJSON(nil)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if got["s"] != "quote \" backslash \\ newline \n tab \t nul \x00 bad \uFFFD <&> \u2028" || got["b"] != true || got["n"] != -42.0 {
		t.Errorf("%s", b)
	}
}
