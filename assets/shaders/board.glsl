// The board block: the top is its baked image as is (board_bake.glsl lit it); the sides borrow the
// frame's strip of it, relit for their own facing: darker end grain, turned from the light.
// The one thing a bake cannot hold is the glint of the key light in the lacquer, which moves with
// the eye: the GLINT variant adds it, drawn only while the camera can see it (scene._has_glint;
// a software renderer would pay for it on every pixel, even behind a uniform switch).
#if defined VERTEX_SHADER
#include "lighting.glsl"
uniform mat4 u_view_proj;
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
#if defined GLINT
out vec3 v_pos;
#endif
out vec2 v_uv;
flat out vec4 v_relight;  // rgb: light over the top's, in display gamma; a: 1 on the top
void main() {
#if defined GLINT
    v_pos = in_position;
#endif
    v_uv = in_uv;
    float top = step(0.5, in_normal.y);
    vec3 ratio = (0.65 + 0.35 * top) * diffuse_light(in_normal) / diffuse_light(vec3(0.0, 1.0, 0.0));
    v_relight = vec4(pow(ratio, vec3(1.0 / 2.2)), top);  // to_display is close to a power law
    gl_Position = u_view_proj * vec4(in_position, 1.0);
}
#elif defined FRAGMENT_SHADER
#include "lighting.glsl"
uniform sampler2D u_board;  // rgb: the lit top, display gamma; a: the lacquer's gloss
#if defined GLINT
in vec3 v_pos;
#endif
in vec2 v_uv;
flat in vec4 v_relight;
out vec4 f_color;
void main() {
    vec4 t = texture(u_board, v_uv);
    vec3 c = t.rgb * v_relight.rgb;
#if defined GLINT
    {  // lighting.glsl's highlight for a surface facing up, added in linear light
        vec3 h = normalize(u_light_dir + normalize(u_eye - v_pos));
        vec3 lin = pow(c, vec3(2.2));
        lin /= 1.0 - 0.12 * lin;  // undo to_display's shoulder
        float spec = 0.5 * t.a * v_relight.a * pow(max(h.y, 0.0), 300.0) * u_light_dir.y * 2.0;
        c = to_display(lin + spec * vec3(1.0, 0.96, 0.9));
    }
#endif
    f_color = vec4(c, 1.0);
}
#endif
