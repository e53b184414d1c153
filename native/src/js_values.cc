#include "js_values.h"

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

Napi::Object TransformToJs(Napi::Env env, const Transform& tr) {
  Napi::Object t = Napi::Object::New(env);
  t.Set("srcWidth", tr.src_width);
  t.Set("srcHeight", tr.src_height);
  Napi::Object crop = Napi::Object::New(env);
  crop.Set("x", tr.crop_x);
  crop.Set("y", tr.crop_y);
  crop.Set("width", tr.crop_width);
  crop.Set("height", tr.crop_height);
  t.Set("crop", crop);
  t.Set("dstWidth", tr.dst_width);
  t.Set("dstHeight", tr.dst_height);
  t.Set("scaleX", tr.scale_x);
  t.Set("scaleY", tr.scale_y);
  t.Set("padX", tr.pad_x);
  t.Set("padY", tr.pad_y);
  return t;
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
  Napi::Object prov = Napi::Object::New(env);
  prov.Set("requested", c.spec().provider);
  prov.Set("assignmentKnown", c.assignment_known());
  prov.Set("note", c.assignment_note());
  Napi::Array counts = Napi::Array::New(env, c.assignment().size());
  for (uint32_t i = 0; i < c.assignment().size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("provider", c.assignment()[i].provider);
    e.Set("nodes", c.assignment()[i].nodes);
    counts.Set(i, e);
  }
  prov.Set("counts", counts);
  Napi::Array cpu = Napi::Array::New(env, c.cpu_nodes().size());
  for (uint32_t i = 0; i < c.cpu_nodes().size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("name", c.cpu_nodes()[i].name);
    e.Set("opType", c.cpu_nodes()[i].op_type);
    cpu.Set(i, e);
  }
  prov.Set("cpuNodes", cpu);
  o.Set("providers", prov);
  o.Set("modelSource", c.model_source());
  o.Set("contextCacheWritten", c.context_cache_written());
  return o;
}

Napi::Object RunOutputToJs(Napi::Env env, RunOutput&& run, double queue_ms, double total_ms) {
  Napi::Object result = Napi::Object::New(env);
  Napi::Array outs = Napi::Array::New(env, run.outputs.size());
  for (uint32_t i = 0; i < run.outputs.size(); ++i) {
    HostTensor& t = run.outputs[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("name", t.name);
    o.Set("dims", DimsArray(env, t.dims));
    o.Set("type", t.type);
    o.Set("data", TakeData(env, std::move(t)));
    outs.Set(i, o);
  }
  result.Set("outputs", outs);
  result.Set("transform", TransformToJs(env, run.transform));
  Napi::Object tm = Napi::Object::New(env);
  tm.Set("queueMs", queue_ms);
  tm.Set("preprocessMs", run.preprocess_ms);
  tm.Set("inferenceMs", run.inference_ms);
  tm.Set("totalMs", total_ms);
  result.Set("timings", tm);
  return result;
}

}  // namespace htp
