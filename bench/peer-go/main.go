// The Go peer for scripts/bench: the callback's work on Go's standard library alone, as a Go
// developer would write it — the signature checked (sha1 of the sorted token, timestamp and
// nonce), the body capped and parsed with encoding/xml, the article code looked up in a map, a
// 1-article news reply rendered with encoding/xml. Like the Node peers it keeps no message log
// and no retry cache. Run with GOMAXPROCS=1, so it is compared per core.
//
// Usage: peer-go PORT TOKEN ARTICLES.json
package main

import (
	"crypto/sha1"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"
)

type article struct {
	Code        string `json:"code"`
	Title       string `json:"title"`
	Description string `json:"description"`
	PicURL      string `json:"picurl"`
	URL         string `json:"url"`
}

type inbound struct {
	ToUserName   string `xml:"ToUserName"`
	FromUserName string `xml:"FromUserName"`
	CreateTime   int64  `xml:"CreateTime"`
	MsgType      string `xml:"MsgType"`
	Content      string `xml:"Content"`
	MsgID        string `xml:"MsgId"`
}

type cdata struct {
	Text string `xml:",cdata"`
}

type item struct {
	Title       cdata `xml:"Title"`
	Description cdata `xml:"Description"`
	PicURL      cdata `xml:"PicUrl"`
	URL         cdata `xml:"Url"`
}

type reply struct {
	XMLName      xml.Name `xml:"xml"`
	ToUserName   cdata    `xml:"ToUserName"`
	FromUserName cdata    `xml:"FromUserName"`
	CreateTime   int64    `xml:"CreateTime"`
	MsgType      cdata    `xml:"MsgType"`
	Content      *cdata   `xml:"Content,omitempty"`
	ArticleCount int      `xml:"ArticleCount,omitempty"`
	Articles     *struct {
		Items []item `xml:"item"`
	} `xml:"Articles,omitempty"`
}

func signature(token, timestamp, nonce string) string {
	parts := []string{token, timestamp, nonce}
	sort.Strings(parts)
	sum := sha1.Sum([]byte(strings.Join(parts, "")))
	return hex.EncodeToString(sum[:])
}

func main() {
	if len(os.Args) < 4 {
		log.Fatal("usage: peer-go PORT TOKEN ARTICLES.json")
	}
	port, token, file := os.Args[1], os.Args[2], os.Args[3]
	raw, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	var list []article
	if err := json.Unmarshal(raw, &list); err != nil {
		log.Fatal(err)
	}
	byCode := make(map[string]article, len(list))
	for _, a := range list {
		byCode[strings.ToLower(a.Code)] = a
	}

	http.HandleFunc("/wechat", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		want := signature(token, q.Get("timestamp"), q.Get("nonce"))
		if subtle.ConstantTimeCompare([]byte(want), []byte(q.Get("signature"))) != 1 {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodGet {
			io.WriteString(w, q.Get("echostr"))
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10+1))
		if err != nil || len(body) > 64<<10 {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		var m inbound
		if err := xml.Unmarshal(body, &m); err != nil {
			http.Error(w, "bad xml", http.StatusBadRequest)
			return
		}
		out := reply{ToUserName: cdata{m.FromUserName}, FromUserName: cdata{m.ToUserName}, CreateTime: time.Now().Unix()}
		a, ok := byCode[strings.ToLower(strings.TrimSpace(m.Content))]
		if m.MsgType == "text" && ok {
			out.MsgType = cdata{"news"}
			out.ArticleCount = 1
			out.Articles = &struct {
				Items []item `xml:"item"`
			}{Items: []item{{Title: cdata{a.Title}, Description: cdata{a.Description}, PicURL: cdata{a.PicURL}, URL: cdata{a.URL}}}}
		} else {
			out.MsgType = cdata{"text"}
			out.Content = &cdata{"Send h for help."}
		}
		w.Header().Set("Content-Type", "application/xml")
		if err := xml.NewEncoder(w).Encode(out); err != nil {
			log.Print(err)
		}
	})
	fmt.Fprintf(os.Stderr, "{\"event\":\"peer\",\"go\":%q}\n", strings.TrimPrefix(runtime.Version(), "go"))
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, nil))
}
