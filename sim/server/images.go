package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"

	"surge/content/vision"
)

// picture is one image a request's messages carry: where it sits in the
// prompt (after the first at texts), its size, and a hash of its bytes,
// so that equal images are equal prompt tokens.
type picture struct {
	at   int
	w, h int
	hash uint64
}

// part is one content part as any API writes it: text, chat's image_url
// ({"url":…}), the Responses API's image_url (a string) or the Messages
// API's base64 source.
type part struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	ImageURL json.RawMessage `json:"image_url"`
	Source   *imageSource    `json:"source"`
}

// imageSource is a Messages API image's source: base64 data of a media
// type.
type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// The image part types of the APIs.
const (
	chatImage      = "image_url"
	responsesImage = "input_image"
	messagesImage  = "image"
)

// contentParts reads a content that is a string, null, or an array of parts
// whose types are among texts or are image, and returns their text
// concatenated and the images, each at the given position; image ""
// takes no images.
func contentParts(raw json.RawMessage, at int, image string, texts ...string) (string, []picture, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, nil, err
	}
	var parts []part
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", nil, errors.New("must be a string or an array of content parts")
	}
	var b bytes.Buffer
	var pics []picture
	for i, p := range parts {
		switch {
		case slices.Contains(texts, p.Type):
			b.WriteString(p.Text)
		case image != "" && p.Type == image:
			pic, err := p.picture()
			if err != nil {
				return "", nil, fmt.Errorf("content[%d]: %w", i, err)
			}
			pic.at = at
			pics = append(pics, pic)
		default:
			return "", nil, fmt.Errorf("content part type %q is not supported", p.Type)
		}
	}
	return b.String(), pics, nil
}

// picture reads an image part's size from its data, and hashes it.
func (p *part) picture() (picture, error) {
	var mediaType, data string
	switch {
	case p.Type == messagesImage:
		if p.Source == nil || p.Source.Type != "base64" {
			return picture{}, errors.New(`an image's source must be {"type": "base64", "media_type": …, "data": …}`)
		}
		mediaType, data = p.Source.MediaType, p.Source.Data
	default:
		url, err := imageURL(p.Type, p.ImageURL)
		if err != nil {
			return picture{}, err
		}
		mediaType, data, err = vision.SplitDataURL(url)
		if err != nil {
			return picture{}, err
		}
	}
	w, h, err := vision.Size(mediaType, data)
	if err != nil {
		return picture{}, err
	}
	f := fnv.New64a()
	f.Write([]byte(data))
	return picture{w: w, h: h, hash: f.Sum64()}, nil
}

// imageURL reads an image part's URL: chat's {"url": …} or the Responses
// API's string.
func imageURL(typ string, raw json.RawMessage) (string, error) {
	if typ == responsesImage {
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			return "", errors.New("input_image needs image_url, a data URL string")
		}
		return s, nil
	}
	var u struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(raw, &u) != nil || u.URL == "" {
		return "", errors.New(`image_url needs {"url": a data URL}`)
	}
	return u.URL, nil
}

// imageIDs appends to ids the prompt tokens of pic for the served model:
// vision.Tokens of them, ids below zero (no text token has one) drawn
// from its hash, so equal images make equal tokens.
func imageIDs(ids []int, model string, pic picture) []int {
	n := vision.Tokens(model, pic.w, pic.h)
	for j := range n {
		ids = append(ids, -1-int((pic.hash+uint64(j))&0x3fffffff))
	}
	return ids
}
