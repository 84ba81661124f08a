//===- TargetInfo.cpp - the adapter interface -----------------------------===//
#include "tessel/Target/TargetInfo.h"

tessel::TargetInfo::~TargetInfo() = default;
