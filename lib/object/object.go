package object

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Object is a JSON object that keeps its keys in insertion order. Rendering by hand keeps
// encoding/json's reflection, and the start-up time it costs, out of every hook.
type Object []member

type member struct {
	key string
	val any // string, bool, int, []string, Raw or *Object
}

// Raw is a value that is already JSON; the caller validates it.
type Raw []byte

// Set stores v (string, bool, int, []string, Raw or *Object) at a dotted path, creating the objects on the way and replacing an old value.
func (o *Object) Set(path string, v any) {
	key, rest, nested := strings.Cut(path, ".")
	for i := range *o {
		if (*o)[i].key != key {
			continue
		}
		if !nested {
			(*o)[i].val = v
			return
		}
		if child, ok := (*o)[i].val.(*Object); ok {
			child.Set(rest, v)
			return
		}
	}
	if !nested {
		*o = append(*o, member{key, v})
		return
	}
	child := &Object{}
	child.Set(rest, v)
	*o = append(*o, member{key, child})
}

// AppendJSON appends the object as compact JSON.
func (o Object) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = gjson.AppendJSONString(b, m.key)
		b = append(b, ':')
		b = appendValue(b, m.val)
	}
	return append(b, '}')
}

func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case string:
		return gjson.AppendJSONString(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	case []string:
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = gjson.AppendJSONString(b, s)
		}
		return append(b, ']')
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case Raw:
		return append(b, v...)
	case *Object:
		return v.AppendJSON(b)
	}
	panic("object: unsupported JSON value type") // a programming error, caught by tests
}
