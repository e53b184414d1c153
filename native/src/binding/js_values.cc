#include "binding/js_values.h"

#include <utility>

namespace htp {
namespace {

Napi::Array DimsArray(Napi::Env env, const std::vector<int64_t>& d) {
  Napi::Array a = Napi::Array::New(env, d.size());
  for (uint32_t i = 0; i < d.size(); ++i) a.Set(i, Napi::Number::New(env, static_cast<double>(d[i])));
  return a;
}

Napi::Array TensorDescs(Napi::Env env, const std::vector<TensorDesc>& v) {
  Napi::Array a = Napi::Array::New(env, v.size());
  for (uint32_t i = 0; i < v.size(); ++i) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("name", v[i].name);
    o.Set("dims", DimsArray(env, v[i].dims));
    Napi::Array sym = Napi::Array::New(env, v[i].symbolic.size());
    for (uint32_t j = 0; j < v[i].symbolic.size(); ++j) sym.Set(j, v[i].symbolic[j]);
    o.Set("symbolicDims", sym);
    o.Set("type", v[i].type);
    a.Set(i, o);
  }
  return a;
}

Napi::ArrayBuffer TakeData(Napi::Env env, HostTensor&& t) {
  if (t.bytes == 0) return Napi::ArrayBuffer::New(env, 0);
  auto* owned = new HostTensor(std::move(t));
  return Napi::ArrayBuffer::New(env, owned->Data(), owned->bytes, [](Napi::Env, void*, HostTensor* p) { delete p; }, owned);
}

}  // namespace

Napi::Object ModelDescToJs(Napi::Env env, const ModelDesc& model) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("inputs", TensorDescs(env, model.inputs));
  o.Set("outputs", TensorDescs(env, model.outputs));
  return o;
}

Napi::Object SessionInfoToJs(Napi::Env env, const SessionCore& c) {
  Napi::Object o = ModelDescToJs(env, c.model());
  const Placement& p = c.placement();
  Napi::Object prov = Napi::Object::New(env);
  prov.Set("requested", c.spec().provider);
  prov.Set("assignmentKnown", p.known);
  prov.Set("note", p.note);
  Napi::Array counts = Napi::Array::New(env, p.counts.size());
  for (uint32_t i = 0; i < p.counts.size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("provider", p.counts[i].provider);
    e.Set("nodes", p.counts[i].nodes);
    counts.Set(i, e);
  }
  prov.Set("counts", counts);
  Napi::Array cpu = Napi::Array::New(env, p.cpu_nodes.size());
  for (uint32_t i = 0; i < p.cpu_nodes.size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("name", p.cpu_nodes[i].name);
    e.Set("opType", p.cpu_nodes[i].op_type);
    cpu.Set(i, e);
  }
  prov.Set("cpuNodes", cpu);
  o.Set("providers", prov);
  o.Set("runtime", c.runtime());
  Napi::Array delegates = Napi::Array::New(env, c.delegates().size());
  for (uint32_t i = 0; i < c.delegates().size(); ++i) delegates.Set(i, c.delegates()[i]);
  o.Set("delegates", delegates);
  Napi::Array in_place = Napi::Array::New(env, c.outputs_in_place().size());
  for (uint32_t i = 0; i < c.outputs_in_place().size(); ++i) in_place.Set(i, c.outputs_in_place()[i]);
  o.Set("outputsInPlace", in_place);
  o.Set("modelSource", c.model_source());
  o.Set("contextCacheWritten", c.context_cache_written());
  return o;
}

Napi::Array RunOutputToJs(Napi::Env env, RunOutput&& run, double queue_ms, double total_ms) {
  // Layout (packedRunResult.ts): 4 timings, 12 transform values, then per output its ONNX element
  // code, its rank and its dims, then the number of channel peaks and two values per peak.
  constexpr size_t kFixed = 16;
  size_t n = kFixed + 1 + run.peaks.size();
  for (const HostTensor& t : run.outputs) n += 2 + t.dims.size();
  Napi::Float64Array nums = Napi::Float64Array::New(env, n);
  double* v = nums.Data();
  const Transform& tr = run.transform;
  const double fixed[kFixed] = {queue_ms,        run.preprocess_ms, run.inference_ms, total_ms,
                                 static_cast<double>(tr.src_width), static_cast<double>(tr.src_height),
                                 tr.crop_x,       tr.crop_y,         tr.crop_width,     tr.crop_height,
                                 static_cast<double>(tr.dst_width), static_cast<double>(tr.dst_height),
                                 tr.scale_x,      tr.scale_y,        static_cast<double>(tr.pad_x),
                                 static_cast<double>(tr.pad_y)};
  size_t k = 0;
  for (double x : fixed) v[k++] = x;
  Napi::Array packed = Napi::Array::New(env, 1 + run.outputs.size());
  packed.Set(0u, nums);
  for (uint32_t i = 0; i < run.outputs.size(); ++i) {
    HostTensor& t = run.outputs[i];
    v[k++] = t.type;
    v[k++] = static_cast<double>(t.dims.size());
    for (int64_t d : t.dims) v[k++] = static_cast<double>(d);
    packed.Set(i + 1, TakeData(env, std::move(t)));
  }
  v[k++] = static_cast<double>(run.peaks.size() / 2);
  for (double x : run.peaks) v[k++] = x;
  return packed;
}

}  // namespace htp
