package settings

import (
	"testing"
)

const group = `{"matcher":"Bash","hooks":[{"type":"command","command":"/h/bin/SV","args":[],"timeout":5}]}`

func TestAddGroup(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty file", "", "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/h/bin/SV\",\n            \"args\": [],\n            \"timeout\": 5\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
		{"empty object", "{}\n", "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/h/bin/SV\",\n            \"args\": [],\n            \"timeout\": 5\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
		{"compact", `{"model":"opus","hooks":{"Stop":[]}}`, `{"model":"opus","hooks":{"Stop":[],"PreToolUse":[` + group + `]}}`},
		{"compact existing array", `{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[]}]}}`, `{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[]},` + group + `]}}`},
		{"tabs, other keys, no trailing newline", "{\n\t\"model\": \"opus\"\n}", "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"Bash\",\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"/h/bin/SV\",\n\t\t\t\t\t\t\"args\": [],\n\t\t\t\t\t\t\"timeout\": 5\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}"},
		{"existing user group", "{\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine.sh\"}]}\n        ]\n    }\n}\n",
			"{\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine.sh\"}]},\n            {\n                \"matcher\": \"Bash\",\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"/h/bin/SV\",\n                        \"args\": [],\n                        \"timeout\": 5\n                    }\n                ]\n            }\n        ]\n    }\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, created, err := AddGroup([]byte(tt.in), "PreToolUse", []byte(group))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			if !Valid(out) {
				t.Fatal("not valid JSON")
			}
			i := FindGroup(out, "PreToolUse", []byte(group))
			if i < 0 {
				t.Fatal("group not found")
			}
			back, err := RemoveGroup(out, "PreToolUse", i, created)
			if err != nil {
				t.Fatal(err)
			}
			if !Valid(back) {
				t.Fatalf("removal left invalid JSON: %s", back)
			}
		})
	}
}
