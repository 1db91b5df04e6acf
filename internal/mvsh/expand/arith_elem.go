// nook: this file is not in upstream mvdan.cc/sh (see ../PATCHES.md, "arithmetic on array elements").

package expand

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// arithTarget is what an arithmetic assignment or ++/-- names: a variable,
// or an element of an array (`a[i]`, `m[key]`).
type arithTarget struct {
	name  string
	index syntax.ArithmExpr // nil for a plain variable
}

func arithTargetOf(x syntax.ArithmExpr) (arithTarget, error) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return arithTarget{}, fmt.Errorf("arithmetic assignment to a non-variable")
	}
	if name := w.Lit(); name != "" {
		return arithTarget{name: name}, nil
	}
	if len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Index != nil && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil {
			return arithTarget{name: pe.Param.Value, index: pe.Index}, nil
		}
	}
	return arithTarget{}, fmt.Errorf("arithmetic assignment to a non-variable")
}

// get is the target's current value as a string.
func (cfg *Config) arithGet(t arithTarget) (string, error) {
	if t.index == nil {
		return cfg.envGet(t.name), nil
	}
	vr := cfg.Env.Get(t.name)
	if _, v := vr.Resolve(cfg.Env); v.IsSet() {
		vr = v
	}
	s, _, err := cfg.varInd(vr, t.index)
	return s, err
}

// arithSet assigns value to the target, creating an indexed array for an
// element of an unset variable.
func (cfg *Config) arithSet(t arithTarget, value string) error {
	if t.index == nil {
		return cfg.envSet(t.name, value)
	}
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	name := t.name
	vr := cfg.Env.Get(name)
	if n, v := vr.Resolve(cfg.Env); n != "" {
		name, vr = n, v
	}
	switch vr.Kind {
	case Associative:
		key := ""
		if w, ok := t.index.(*syntax.Word); ok {
			k, err := Literal(cfg, w)
			if err != nil {
				return err
			}
			key = k
		} else {
			n, err := Arithm(cfg, t.index)
			if err != nil {
				return err
			}
			key = strconv.Itoa(n)
		}
		m := make(map[string]string, len(vr.Map)+1)
		for k, v := range vr.Map {
			m[k] = v
		}
		m[key] = value
		vr.Map = m
	default:
		i, err := Arithm(cfg, t.index)
		if err != nil {
			return err
		}
		if vr.Kind != Indexed {
			var list []string
			if vr.IsSet() && vr.Kind == String {
				list = []string{vr.Str} // a string is element 0
			}
			vr = Variable{Set: true, Local: vr.Local, Exported: vr.Exported, Kind: Indexed, List: list}
		}
		if vr.ReadOnly {
			return fmt.Errorf("%s: readonly variable", name)
		}
		if vr.Indexes == nil {
			if i < 0 {
				i += len(vr.List)
				if i < 0 {
					return fmt.Errorf("%s: bad array subscript", name)
				}
			}
			switch {
			case i < len(vr.List):
				list := slices.Clone(vr.List)
				list[i] = value
				vr.List = list
			case i == len(vr.List):
				vr.List = append(slices.Clone(vr.List), value)
			default: // a gap: the array becomes sparse, as in bash
				idx := make([]int, 0, len(vr.List)+1)
				for j := range vr.List {
					idx = append(idx, j)
				}
				vr.List = append(slices.Clone(vr.List), value)
				vr.Indexes = append(idx, i)
			}
			break
		}
		if i < 0 {
			last := -1
			if n := len(vr.Indexes); n > 0 {
				last = vr.Indexes[n-1]
			}
			i += last + 1
			if i < 0 {
				return fmt.Errorf("%s: bad array subscript", name)
			}
		}
		pos, found := slices.BinarySearch(vr.Indexes, i)
		list, idx := slices.Clone(vr.List), slices.Clone(vr.Indexes)
		if found {
			list[pos] = value
		} else {
			list = slices.Insert(list, pos, value)
			idx = slices.Insert(idx, pos, i)
		}
		vr.List, vr.Indexes = list, idx
	}
	vr.Set = true
	return wenv.Set(name, vr)
}
