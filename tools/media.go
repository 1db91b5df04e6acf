package tools

import (
	"bytes"
	"net/http"
	"strings"
	"unicode/utf8"
)

// What read makes of a file: text (numbered lines), media passed to the
// model (images and PDFs), or binary it cannot show.
type fileClass uint8

const (
	classUnknown  fileClass = iota // decide by sniffing the content
	classText                      // a known text extension: no media sniff
	classImage                     // image/png, image/jpeg, image/gif, image/webp
	classDocument                  // application/pdf
	classBinary
)

// mediaSniffBytes is how much of a file the media sniff looks at, and
// binarySniffBytes how much the text-or-binary check looks at.
const (
	mediaSniffBytes  = 512
	binarySniffBytes = 8 << 10
)

// mediaExts are the extensions read passes to the model as media without
// looking at the content first.
var mediaExts = map[string]string{
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".pdf":  "application/pdf",
}

// textExts and textNames are known text files: they skip the media sniff
// (the binary check still runs). SVG is text: models read its source.
var textExts = map[string]bool{}

var textNames = map[string]bool{
	".dockerignore": true, ".editorconfig": true, ".env": true, ".gitattributes": true,
	".gitignore": true, ".gitmodules": true, ".npmrc": true, ".prettierrc": true,
	"dockerfile": true, "makefile": true, "gemfile": true, "rakefile": true,
	"procfile": true, "license": true, "readme": true, "go.mod": true, "go.sum": true,
}

func init() {
	for _, e := range strings.Fields(`.c .cc .cpp .cxx .h .hh .hpp .cs .conf .cfg .css .scss
		.less .csv .tsv .env .go .mod .sum .html .htm .ini .java .kt .kts .scala .groovy
		.gradle .js .cjs .mjs .jsx .ts .tsx .mts .cts .json .jsonc .json5 .jsonl .ndjson
		.lock .log .md .markdown .mdx .rst .adoc .tex .php .py .pyi .rb .rs .sh .bash .zsh
		.fish .ps1 .bat .cmd .sql .svg .toml .txt .text .xml .xsd .xsl .yaml .yml .zig
		.swift .m .mm .lua .pl .pm .r .jl .ex .exs .erl .hrl .hs .ml .mli .fs .fsx .clj
		.cljs .edn .dart .vue .svelte .astro .graphql .gql .proto .thrift .tf .tfvars
		.hcl .nix .dockerfile .mk .cmake .patch .diff .properties .ipynb .vim .el .lisp
		.scm .sol .v .sv .vhd .asm .s .awk .sed .tpl .tmpl .j2 .ejs .hbs .mustache .srt
		.vtt .bib .org .pod .cabal .gemspec .podspec .csproj .sln .vcxproj .plist
		.xaml .wsdl .rss .atom .ics .vcf .pem .crt .csr .pub .asc .http .rest .cue
		.dhall .bzl .bazel .star .sbt .nim .cr .d .f90 .for .pas .pp .ada .cob .rkt
		.purs .elm .odin .mojo .gleam .vy .cairo .move .prisma .txtpb .textproto`) {
		textExts[e] = true
	}
}

// classifyName classifies a file by its name alone: media (with its MIME),
// known text, or unknown.
func classifyName(name string) (fileClass, string) {
	base := strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])
	ext := ""
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		ext = base[i:]
	}
	if mime, ok := mediaExts[ext]; ok {
		if mime == "application/pdf" {
			return classDocument, mime
		}
		return classImage, mime
	}
	if textExts[ext] || textNames[base] {
		return classText, ""
	}
	return classUnknown, ""
}

// sniffMedia recognises an image or a PDF by its first bytes.
func sniffMedia(head []byte) (fileClass, string) {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return classImage, "image/png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return classImage, "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return classImage, "image/gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return classImage, "image/webp"
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return classDocument, "application/pdf"
	}
	return classUnknown, ""
}

// looksBinary reports whether sample, the start of a file (complete tells
// it is the whole file), is not text: it holds a NUL byte, or more than a
// quarter of it is not valid UTF-8. Text in a legacy 8-bit encoding with a
// few accented letters still reads as text (with replacement characters).
func looksBinary(sample []byte, complete bool) bool {
	if len(sample) > binarySniffBytes {
		sample, complete = sample[:binarySniffBytes], false
	}
	if bytes.IndexByte(sample, 0) >= 0 {
		return true
	}
	if utf8.Valid(sample) {
		return false
	}
	bad := 0
	for i := 0; i < len(sample); {
		r, n := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && n == 1 {
			if !complete && len(sample)-i < utf8.UTFMax && !utf8.FullRune(sample[i:]) {
				break // a character cut by the end of the sample
			}
			bad++
		}
		i += n
	}
	return bad*4 > len(sample)
}

// binaryMIME names the type of a binary file for the model, or
// application/octet-stream.
func binaryMIME(head []byte) string {
	mime := http.DetectContentType(head)
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = mime[:i]
	}
	if strings.HasPrefix(mime, "text/") {
		return "application/octet-stream" // it failed the text check
	}
	return mime
}
