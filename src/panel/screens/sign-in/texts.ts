import { defineTexts } from '../../i18n'

export const texts = defineTexts({
  en: {
    operatorSignIn: 'Operator sign-in',
    workspaceSignIn: 'Sign in with a workspace key',
    operatorHeading: 'Operator sign-in',
    operatorIntro:
      'With the gateway’s admin key (ADMIN_API_KEY) you manage workspaces, their plans and their API keys. It stays in this tab (sessionStorage).',
    adminKey: 'Admin key (ADMIN_API_KEY)',
    adminRefused: 'The admin key was refused.',
    adminDisabled:
      'This gateway has no admin API: ADMIN_API_KEY is not set. The operator sets it (at least 32 characters, e.g. openssl rand -hex 32) and restarts the gateway.',
    heading: 'Sign in',
    apiKey: 'API key (on the edge deployment: a JWT)',
    deploymentKey: 'Deployment key (only when the operator set DEPLOYMENT_API_KEY)',
    submit: 'Sign in',
    keyStays: 'The key stays in this tab (sessionStorage) and goes only to this gateway.',
    firstKey: 'No key yet? On the gateway’s machine: {command}',
  },
  'pt-BR': {
    operatorSignIn: 'Entrar como operador',
    workspaceSignIn: 'Entrar com a chave de um workspace',
    operatorHeading: 'Entrada do operador',
    operatorIntro:
      'Com a chave de administração do gateway (ADMIN_API_KEY) você gerencia os workspaces, seus planos e suas chaves de API. Ela fica nesta aba (sessionStorage).',
    adminKey: 'Chave de administração (ADMIN_API_KEY)',
    adminRefused: 'A chave de administração foi recusada.',
    adminDisabled:
      'Este gateway não tem a API de administração: ADMIN_API_KEY não está definida. O operador a define (pelo menos 32 caracteres, por exemplo openssl rand -hex 32) e reinicia o gateway.',
    heading: 'Entrar',
    apiKey: 'Chave de API (na implantação edge: um JWT)',
    deploymentKey: 'Chave da implantação (só quando o operador definiu DEPLOYMENT_API_KEY)',
    submit: 'Entrar',
    keyStays: 'A chave fica nesta aba (sessionStorage) e vai apenas para este gateway.',
    firstKey: 'Ainda sem chave? Na máquina do gateway: {command}',
  },
  es: {
    operatorSignIn: 'Acceso del operador',
    workspaceSignIn: 'Iniciar sesión con la clave de un workspace',
    operatorHeading: 'Acceso del operador',
    operatorIntro:
      'Con la clave de administración del gateway (ADMIN_API_KEY) gestionas los workspaces, sus planes y sus claves de API. Se queda en esta pestaña (sessionStorage).',
    adminKey: 'Clave de administración (ADMIN_API_KEY)',
    adminRefused: 'La clave de administración fue rechazada.',
    adminDisabled:
      'Este gateway no tiene la API de administración: ADMIN_API_KEY no está definida. El operador la define (al menos 32 caracteres, por ejemplo openssl rand -hex 32) y reinicia el gateway.',
    heading: 'Iniciar sesión',
    apiKey: 'Clave de API (en el despliegue edge: un JWT)',
    deploymentKey: 'Clave del despliegue (solo si el operador definió DEPLOYMENT_API_KEY)',
    submit: 'Iniciar sesión',
    keyStays: 'La clave se queda en esta pestaña (sessionStorage) y solo va a este gateway.',
    firstKey: '¿Aún sin clave? En la máquina del gateway: {command}',
  },
})
