//===- Depfile.cpp - reading a compiler's -MD dependency file -------------===//
#include "tessel/Driver/Depfile.h"

std::vector<std::string> tessel::driver::parseDepfile(llvm::StringRef text) {
  std::vector<std::string> words;
  std::string word;
  bool sawColon = false;
  auto flush = [&] {
    if (word.empty())
      return;
    if (!sawColon && word.back() == ':') {
      sawColon = true; // "target:" ends the targets
    } else if (sawColon) {
      words.push_back(word);
    }
    word.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      char n = text[i + 1];
      if (n == '\n' || (n == '\r' && i + 2 < text.size() && text[i + 2] == '\n')) {
        flush(); // line continuation
        i += n == '\r' ? 2 : 1;
        continue;
      }
      if (n == ' ' || n == '#' || n == '\\') {
        word += n;
        ++i;
        continue;
      }
    }
    if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      word += '$';
      ++i;
      continue;
    }
    if (c == '\n') {
      flush();
      if (sawColon)
        break; // only the first rule (later -MP phony rules repeat the headers)
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      flush();
      continue;
    }
    word += c;
  }
  flush();
  return words;
}
