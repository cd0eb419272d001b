import { defineTexts } from '../../i18n'

export const texts = defineTexts({
  en: {
    heading: 'Sign in',
    apiKey: 'API key (on the edge deployment: a JWT)',
    deploymentKey: 'Deployment key (only when the operator set DEPLOYMENT_API_KEY)',
    submit: 'Sign in',
    keyStays: 'The key stays in this tab (sessionStorage) and goes only to this gateway.',
    firstKey: 'No key yet? On the gateway’s machine: {command}',
  },
  'pt-BR': {
    heading: 'Entrar',
    apiKey: 'Chave de API (na implantação edge: um JWT)',
    deploymentKey: 'Chave da implantação (só quando o operador definiu DEPLOYMENT_API_KEY)',
    submit: 'Entrar',
    keyStays: 'A chave fica nesta aba (sessionStorage) e vai apenas para este gateway.',
    firstKey: 'Ainda sem chave? Na máquina do gateway: {command}',
  },
  es: {
    heading: 'Iniciar sesión',
    apiKey: 'Clave de API (en el despliegue edge: un JWT)',
    deploymentKey: 'Clave del despliegue (solo si el operador definió DEPLOYMENT_API_KEY)',
    submit: 'Iniciar sesión',
    keyStays: 'La clave se queda en esta pestaña (sessionStorage) y solo va a este gateway.',
    firstKey: '¿Aún sin clave? En la máquina del gateway: {command}',
  },
})
